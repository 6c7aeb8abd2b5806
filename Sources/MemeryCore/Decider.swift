import Foundation

/// The shape every stream's logic takes — a creation, one creation's gallery membership, the
/// garage, the templates: a state that decides what a command causes and evolves by the events
/// it caused. Pure and without I/O, so it is tested without a disk; the facade has one path
/// that loads a state, decides, appends with the version it decided against, and on a
/// conflict with another process, loads and decides again (`EventSourcedRepository` in Memery).
public protocol Decider: Sendable {
    associatedtype Command
    associatedtype Event
    /// The state of a stream that has no events yet.
    static func initialState(of stream: UUID) -> Self
    /// What `command` causes, or a typed error that says why it cannot be done. No events:
    /// nothing changes.
    func decide(_ command: Command) throws -> [Event]
    /// The state after `event`.
    func evolve(_ event: Event) -> Self
}

extension Decider {
    /// The state after `events`, in order.
    public func evolve<Events: Sequence>(_ events: Events) -> Self where Events.Element == Event {
        events.reduce(self) { $0.evolve($1) }
    }
}
