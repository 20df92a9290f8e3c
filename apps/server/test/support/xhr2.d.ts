/** xhr2 ships no types: it exports an XMLHttpRequest class for Node. */
declare module 'xhr2' {
  const XMLHttpRequest: new () => unknown;
  export default XMLHttpRequest;
}
