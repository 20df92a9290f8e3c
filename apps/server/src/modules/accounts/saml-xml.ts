import { createRequire } from 'node:module';

/**
 * The XML parser and XPath engine SAML reading uses (@xmldom/xmldom, xpath: the ones node-saml
 * itself checks signatures with), loaded untyped and given the few members used here. Their own
 * type declarations pull in the browser's DOM library, which would turn the server's `fetch`,
 * `Blob` and timers into the browser's across every file; these interfaces keep it out.
 */
export interface XmlNode {
  textContent: string | null;
}
export interface XmlElement extends XmlNode {
  getAttribute(name: string): string | null;
}
export interface XmlAttr extends XmlNode {
  value: string;
}
export interface XmlDocument extends XmlNode {
  documentElement: XmlElement | null;
}

interface ErrorHandler {
  warning: (message: unknown) => void;
  error: (message: unknown) => void;
  fatalError: (message: unknown) => void;
}
interface XmlDomModule {
  DOMParser: new (options: { errorHandler: ErrorHandler }) => {
    parseFromString(xml: string, mimeType: 'text/xml'): XmlDocument | undefined;
  };
}
/** An XPath selection: every matching node, or with `single` the first one (undefined when none). */
type Select = (expression: string, node: XmlNode, single?: boolean) => unknown;
interface XpathModule {
  useNamespaces(namespaces: Record<string, string>): Select;
  select1(expression: string, node: XmlNode): unknown;
}

const load = createRequire(import.meta.url);
export const { DOMParser } = load('@xmldom/xmldom') as XmlDomModule;
export const xpath = load('xpath') as XpathModule;
