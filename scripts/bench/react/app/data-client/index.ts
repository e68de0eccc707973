/**
 * What the app imports from `restlens`, taken from `@data-client/rest` 0.9.9: the data-client
 * build resolves `restlens` here, so both apps are the same source.
 */
export { createResource, Entity } from '@data-client/rest';
