export { RECORD_ROLES, type RecordProvenance, type RecordRole, type RecordSource, type SourceRecord } from './record.js';
