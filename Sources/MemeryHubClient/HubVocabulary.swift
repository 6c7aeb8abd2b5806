// The hub's wire vocabulary is this client's: what it hands its front ends (the CLI, the
// editor's server) is the protocol's own types (a library page, an account), as the facade
// hands out MemeryCore's. Re-exported here so that a front end imports the client alone and
// never the protocol module (scripts/check-imports refuses that).
@_exported public import MemeryHubProtocol
