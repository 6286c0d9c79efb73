/**
 * A short licence name from a licence URL or statement: Creative Commons URLs and "Creative
 * Commons Attribution 4.0" statements become "CC BY 4.0" (with -NC, -ND, -SA parts); anything
 * else is kept as the URL, or the statement cut to 200 characters.
 */
export function licenceName(url: string | undefined, statement: string | undefined): string | undefined {
  const fromUrl = url && /creativecommons\.org\/(licenses|publicdomain)\/([a-z-]+)\/(\d\.\d)?/i.exec(url);
  if (fromUrl) {
    const kind = fromUrl[2]!.toLowerCase();
    if (fromUrl[1]!.toLowerCase() === 'publicdomain') return kind === 'zero' ? 'CC0' : 'public domain';
    return `CC ${kind.toUpperCase()}${fromUrl[3] ? ` ${fromUrl[3]}` : ''}`;
  }
  const text = statement?.replace(/\s+/g, ' ').trim();
  const cc =
    text &&
    /Creative Commons (Attribution(?:[- ](?:Non-?Commercial|No-?Derivatives?|Share-?Alike))*)[^.]*?(\d\.\d)?/i.exec(
      text,
    );
  if (cc) {
    const parts = cc[1]!.toLowerCase();
    let name = 'CC BY';
    if (/non-?commercial/.test(parts)) name += '-NC';
    if (/no-?derivative/.test(parts)) name += '-ND';
    if (/share-?alike/.test(parts)) name += '-SA';
    return cc[2] ? `${name} ${cc[2]}` : name;
  }
  if (url) return url;
  return text ? text.slice(0, 200) : undefined;
}
