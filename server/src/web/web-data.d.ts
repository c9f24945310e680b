// The package's data/ and schemas, put into the in-memory file system (scripts/build.mjs generates the module).
declare module 'skewguard:web-data' {}
