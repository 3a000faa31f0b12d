// Repository permissions in the order `sender-permission` compares them: each grants more than
// the one before.
export const PERMISSIONS = ['none', 'read', 'triage', 'write', 'maintain', 'admin'] as const;

export type Permission = (typeof PERMISSIONS)[number];
