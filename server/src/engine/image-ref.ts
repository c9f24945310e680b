// A container image reference split into its parts: read by the Kubernetes family (component images and their skew)
// and by the operator pins (an operator's image tag), one parser for both.

export interface ImageRef { repository: string; tag?: string; digest?: string }

/** registry/path/name[:tag][@digest] -> parts (a registry port is not mistaken for a tag). */
export function parseImage(ref: string): ImageRef {
  let rest = ref.trim();
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at >= 0) { digest = rest.slice(at + 1); rest = rest.slice(0, at); }
  const slash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  let tag: string | undefined;
  if (colon > slash) { tag = rest.slice(colon + 1); rest = rest.slice(0, colon); }
  return { repository: rest, tag, digest };
}
