/**
 * Modes of everything mem creates in the log and under `.mem/`: transcripts, memories and
 * token hashes are for their owner only. Each writer sets them explicitly after creating a
 * file (chmod / fchmod), because a create mode is masked by whatever umask the process has.
 */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIRECTORY_MODE = 0o700;
