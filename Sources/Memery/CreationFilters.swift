public import Foundation
import MemeryCore
import MemeryRender
import MemeryStore

/// Filters in creations, handed out by `Workspace.filters`: parameters are checked against
/// the plugin's declaration before anything is stored, and stored whole (defaults filled in)
/// with the plugin's parameter version, so a later plugin changing a default does not change
/// a saved picture.
public struct CreationFilters: Sendable {
    let workspace: Workspace
    var filterHost: FilterHost { workspace.compositor.filters }

    /// Adds a filter on the base image (the canvas, for a blank one), a layer, or the whole
    /// canvas; `settings` are `PARAM=VALUE`. Returns the filter's position in the creation.
    @discardableResult
    public func apply(_ name: String, filter id: String, settings: [String], layer: String? = nil, canvas: Bool = false) throws -> Int {
        let session = try workspace.session(name)
        _ = try apply(in: session, filter: id, settings: settings, layer: layer, canvas: canvas)
        return try session.state.filters.count
    }

    func apply(in session: CreationSession, filter id: String, settings: [String], layer: String?, canvas: Bool) throws -> [RecordedEvent] {
        let command = try filterCommand(session.state, filter: id, settings: settings, layer: layer, canvas: canvas)
        try tryRendering(session.state, command)
        return try session.edit(command)
    }

    /// The picture as applying the filter would leave it, stored nowhere: what the editor
    /// shows while the person moves a filter's sliders.
    public func preview(_ name: String, filter id: String, settings: [String], layer: String? = nil, canvas: Bool = false,
                              width: Int? = nil, format: ExportFormat? = nil) throws -> Picture {
        let state = try workspace.creation(named: name)
        let command = try filterCommand(state, filter: id, settings: settings, layer: layer, canvas: canvas)
        return try workspace.preview(of: state, after: command, width: width, format: format)
    }

    /// The picture as changing the settings of the filter at `position` would leave it,
    /// stored nowhere: what the editor shows while an applied filter's slider is dragged.
    /// Settings are checked as `setParams` checks them, with the same messages.
    public func preview(_ name: String, position: Int, settings: [String], width: Int? = nil, format: ExportFormat? = nil) throws -> Picture {
        let state = try workspace.creation(named: name)
        return try workspace.preview(of: state, after: try setParamsCommand(state, position: position, settings: settings), width: width, format: format)
    }

    private func filterCommand(_ state: Creation, filter id: String, settings: [String], layer: String?, canvas: Bool) throws -> CreationCommand {
        guard let descriptor = filterHost.filter(id) else { throw filterHost.notInstalled(id) }
        let defaults = Dictionary(uniqueKeysWithValues: descriptor.params.map { ($0.id, $0.defaultValue) })
        let params = try filterHost.parse(settings, for: id, over: defaults)
        let target: FilterTarget = layer.map { .layer($0) } ?? (canvas || state.baseImage == nil ? .canvas : .base)
        return .applyFilter(filter: id, target: target, paramVersion: descriptor.paramVersion, params: params)
    }

    /// Changes parameters of the filter at `position` (1 first, as `show` lists them).
    public func setParams(_ name: String, position: Int, settings: [String]) throws {
        try setParams(in: try workspace.session(name), position: position, settings: settings)
    }

    @discardableResult
    func setParams(in session: CreationSession, position: Int, settings: [String]) throws -> [RecordedEvent] {
        let command = try setParamsCommand(session.state, position: position, settings: settings)
        try tryRendering(session.state, command)
        return try session.edit(command)
    }

    private func setParamsCommand(_ state: Creation, position: Int, settings: [String]) throws -> CreationCommand {
        let applied = try state.existingFilter(position)
        guard let descriptor = filterHost.filter(applied.filter) else { throw filterHost.missing([applied.filter]) }
        let current = try filterHost.current(applied.params, version: applied.paramVersion, for: applied.filter)
        let params = try filterHost.parse(settings, for: applied.filter, over: current)
        return .setFilterParams(position: position, paramVersion: descriptor.paramVersion, params: params)
    }

    /// Renders the creation as the command would leave it, so that a filter that crashes,
    /// hangs or fails is reported before anything is stored: the creation stays as it was.
    private func tryRendering(_ state: Creation, _ command: CreationCommand) throws {
        let next = state.evolve(try state.decide(command))
        _ = try workspace.pictures.render(next, skipMissingFilters: true)
    }

    public func remove(_ name: String, position: Int) throws {
        try workspace.session(name).edit(.removeFilter(position: position))
    }
}
