/** A numbered part of a legal document: its heading, then a paragraph, a list, or both. */
export type DocumentSection = {
  readonly title: string;
  readonly text?: string;
  readonly items?: readonly string[];
};

/** A legal document shown on a screen (ADR 0084): kept out of the `t()` catalog, in a module. */
export type LegalDocument = {
  readonly title?: string;
  readonly intro: string;
  readonly sections: readonly DocumentSection[];
  /** The closing dated line. */
  readonly footer: string;
};
