/**
 * Compares two strings in the order of their UTF-8 bytes, i.e. C `strcmp` on UTF-8 text (which is
 * code-point order). JavaScript's `<` compares UTF-16 code units, which differs for characters
 * above U+FFFF versus U+E000–U+FFFF; the remapping below fixes that without allocating.
 */
export function compareBytes(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800) x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
    if (y >= 0xd800) y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    return x - y;
  }
  return a.length - b.length;
}
