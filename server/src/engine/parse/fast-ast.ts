// The yaml package's Document for a chunk the fast path read, built from its range tree instead of by
// the full parse (which costs about ten times more). The rules ask for it through YamlDoc.ast whenever
// they compute a fix (parse/yaml-edit.ts), which is for every document with a finding.
//
// Same as the full parse's Document: the node classes (YAMLMap, YAMLSeq, Pair, Scalar, Alias), anchors, every node's
// range (all three offsets), scalar value, source, type, format and minFractionDigits, collection `flow`
// flags, `doc.range`, `doc.directives.docStart`, the options, the schema, and so toJS() and the value
// side of toString(). Not attached: comments and blank-line markers (`comment`, `commentBefore`,
// `spaceBefore`); YamlDoc.fullAst has them. test/yaml-fast.test.mjs compares the two Documents node by
// node and runs YamlEditor on both.
import { parseDocument, isScalar, Alias, Pair, Scalar, YAMLMap, YAMLSeq, type Document, type Node, type Schema } from 'yaml';
import { MAP_STRIDE, SEQ_STRIDE, plainTag, quotedText, unfold, type FastColl, type FastResult } from './fast-yaml';

let template: Document.Parsed | null = null;

/** A Document with the full parse's options, directives and schema, and no contents. */
function blankDocument(options: object): Document.Parsed {
  if (!template) {
    template = parseDocument('a: 1', options) as Document.Parsed;
    template.contents = null;
  }
  return template.clone() as Document.Parsed;
}

export function fastDocument(src: string, fast: FastResult, options: object): Document.Parsed {
  const doc = blankDocument(options);
  const schema = doc.schema;
  if (fast.docStart >= 0) doc.directives.docStart = true;
  if (fast.root) {
    const root = fast.root;
    doc.contents = collection(src, root, fast.value, root.s, root.e, root.e2, schema, fast.anchors) as Document.Parsed['contents'];
    // Text after the last value is the document's (its end), unless that value is empty and took it.
    doc.range = [fast.docOffset, root.e2, fast.emptyLast ? root.e2 : src.length];
  } else if (fast.emptyRoot) {
    const [p, , e2] = fast.emptyRoot;
    doc.contents = scalar(src, p, p, e2, null, schema) as Document.Parsed['contents'];
    doc.range = [fast.docOffset, e2, e2];
  } else {
    doc.range = [0, src.length, src.length];
  }
  return doc;
}

/**
 * A collection node. Its items are built on first access (an accessor that replaces itself with the
 * array): a fix usually touches a few paths of a document, not all of it.
 */
type Anchors = FastResult['anchors'];

function collection(src: string, c: FastColl, value: unknown, s: number, e: number, e2: number, schema: Schema, anchors: Anchors): Node {
  const node = c.t === 1 ? new YAMLMap(schema) : new YAMLSeq(schema);
  if (c.flow) node.flow = true;
  node.range = [s, e, e2];
  Object.defineProperty(node, 'items', {
    configurable: true,
    enumerable: true,
    get() {
      const items = c.t === 1 ? mapItems(src, c, value as Record<string, unknown>, schema, anchors) : seqItems(src, c, value as unknown[], schema, anchors);
      Object.defineProperty(node, 'items', { value: items, writable: true, enumerable: true, configurable: true });
      return items;
    },
    set(items: unknown[]) {
      Object.defineProperty(node, 'items', { value: items, writable: true, enumerable: true, configurable: true });
    },
  });
  return node;
}

/** An item's value node: a collection, an alias (`*name`: no plain scalar starts with `*`) or a scalar, with its anchor. */
function valueNode(src: string, kid: FastColl | undefined, v: unknown, s: number, e: number, e2: number, schema: Schema, anchors: Anchors): Node {
  let node: Node;
  if (kid) node = collection(src, kid, v, s, e, e2, schema, anchors);
  else if (src.charCodeAt(s) === 42 && s < e) {
    node = new Alias(src.slice(s + 1, e));
    node.range = [s, e, e2];
    return node;
  } else node = scalar(src, s, e, e2, v, schema);
  const anchor = anchors?.get(s);
  if (anchor !== undefined) node.anchor = anchor;
  return node;
}

function mapItems(src: string, c: FastColl, obj: Record<string, unknown>, schema: Schema, anchors: Anchors): Pair[] {
  const r = c.r;
  const items: Pair[] = [];
  for (let i = 0; i < c.keys.length; i++) {
    const o = i * MAP_STRIDE;
    const key = scalar(src, r[o], r[o + 1], r[o + 1], undefined, schema);
    const vs = r[o + 2];
    const kid = c.kids?.[i];
    const v = obj[c.keys[i]];
    const val = vs < 0 ? null : valueNode(src, kid, v, vs, r[o + 3], r[o + 4], schema, anchors);
    items.push(new Pair(key, val));
  }
  return items;
}

function seqItems(src: string, c: FastColl, arr: unknown[], schema: Schema, anchors: Anchors): Node[] {
  const r = c.r;
  const items: Node[] = [];
  for (let i = 0, n = r.length / SEQ_STRIDE; i < n; i++) {
    const o = i * SEQ_STRIDE;
    const kid = c.kids?.[i];
    items.push(valueNode(src, kid, arr[i], r[o], r[o + 1], r[o + 2], schema, anchors));
  }
  return items;
}

/**
 * A scalar node as composeScalar() makes it. `value` is its JS value when known (quoted and block
 * scalars: the string); plain scalars are resolved again for their tag's node properties.
 */
function scalar(src: string, s: number, e: number, e2: number, value: unknown, schema: Schema): Scalar {
  void schema;
  let node: Scalar;
  const c = src.charCodeAt(s);
  if (s === e || !(c === 34 || c === 39 || c === 124 || c === 62)) {
    const str = s === e ? '' : unfold(src.slice(s, e));
    const tag = plainTag(str);
    if (tag) {
      const res = tag.resolve(str);
      node = isScalar(res) ? res : new Scalar(res);
      if (tag.format) node.format = tag.format;
    } else {
      node = new Scalar(str);
    }
    node.source = str;
    node.type = Scalar.PLAIN;
  } else if (c === 34 || c === 39) {
    const str = typeof value === 'string' ? value : quotedText(src, s, e);
    node = new Scalar(str);
    node.source = str;
    node.type = c === 34 ? Scalar.QUOTE_DOUBLE : Scalar.QUOTE_SINGLE;
  } else {
    const str = value as string;
    node = new Scalar(str);
    node.source = str;
    node.type = c === 124 ? Scalar.BLOCK_LITERAL : Scalar.BLOCK_FOLDED;
  }
  node.range = [s, e, e2];
  return node;
}
