import { ENUM_VALUES } from '../../schema/enum-values.js';

/** Enum values as the backend writes them (the same objects codegen's `enumValues` reads). */
export const enumResolvers = ENUM_VALUES;
