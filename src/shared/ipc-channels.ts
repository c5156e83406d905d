/**
 * The IPC channel names, kept free of zod so the sandboxed preload can import them without
 * bundling a schema library it never runs. Everyone else imports them from ./contract.
 */
export const ipcChannels = {
  getInfo: 'app:get-info',
} as const

export type IpcChannel = (typeof ipcChannels)[keyof typeof ipcChannels]
