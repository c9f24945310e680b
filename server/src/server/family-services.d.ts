// The server modules of the registry's families (engine/families/<id>/server/index.ts), in the registry's order:
// written by the build (scripts/family-services.mjs), never by hand, so that no server module names a family.
declare module 'skewguard:family-services' {
  export const familyServices: readonly import('./family-service').FamilyServerModule[];
}
