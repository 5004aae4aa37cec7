export * from './users'
export * from './podclubs'
export * from './polls'
export * from './mail'
