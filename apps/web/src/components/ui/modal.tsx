import { useLayoutEffect, useState } from 'react';
// eslint-disable-next-line no-restricted-imports -- the one place that wraps it
import { Modal as MantineModal, type ModalProps } from '@mantine/core';

/**
 * Mantine's Modal, drawn from the first time it opens. A closed Mantine Modal still mounts its
 * portal node, its scroll lock and its context on every page that holds it (the shell's three
 * dialogs, the account menu's, each screen's): on a phone's first load that was a quarter of
 * the app's first commit (ADR 0087). Once drawn it stays mounted, so its closing transition
 * plays and what it holds keeps its state, as before.
 *
 * Opening draws it closed for one commit and then opens it: Mantine notes the element that had
 * the focus when `opened` changes (not when it mounts open), to give it back on close.
 */
export function Modal(props: ModalProps) {
  const [stage, setStage] = useState<'none' | 'drawn' | 'live'>(props.opened ? 'live' : 'none');
  if (props.opened && stage === 'none') setStage('drawn');
  useLayoutEffect(() => {
    if (stage === 'drawn') setStage('live');
  }, [stage]);
  if (stage === 'none') return null;
  return <MantineModal {...props} opened={props.opened && stage === 'live'} />;
}
