/**
 * Decodes each path segment the way React Router's matcher expects, keeping an encoded slash as
 * %2F so a state name like 'Shared w/ group' stays one segment.
 */
export function decodePathSegments(pathname: string): string {
  try {
    return pathname
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(/\//g, '%2F'))
      .join('/');
  } catch {
    return pathname;
  }
}
