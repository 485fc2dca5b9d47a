export * from './accounts.ts';
export * from './devices.ts';
export * from './offers.ts';
export * from './password-resets.ts';
export * from './profile.ts';
export * from './reference.ts';
export * from './users.ts';
