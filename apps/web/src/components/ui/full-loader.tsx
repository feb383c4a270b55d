import { Center, Loader } from '@mantine/core';
import { ja } from '../../i18n/ja';

/** The whole page waits (a session check, the first screen's code), named in Japanese. */
export function FullLoader() {
  return (
    <Center mih="100vh">
      <Loader aria-label={ja.app.loading} />
    </Center>
  );
}
