// fontverter (a dependency of subset-font) ships no types; the one function the font test uses.
declare module 'fontverter' {
  const fontverter: {
    convert(font: Uint8Array, to: 'truetype' | 'sfnt' | 'woff' | 'woff2'): Promise<Uint8Array>;
  };
  export default fontverter;
}
