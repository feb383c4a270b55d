/** heic-decode ships no types: what convert.ts uses of it (libheif compiled to WebAssembly). */
declare module 'heic-decode' {
  type Decoded = { width: number; height: number; data: Uint8ClampedArray };
  const decode: (input: { buffer: Buffer | ArrayBuffer | Uint8Array }) => Promise<Decoded>;
  export default decode;
}
