extension Creation {
    /// Applies one edit event. Pure and total: events were validated when decided, so evolve
    /// never refuses one (an event about a missing layer changes nothing).
    public func evolve(_ event: CreationEvent) -> Creation {
        if event.isHeadMove { return self }  // not an edit: CreationHistory moves between states
        var next = self
        next.version += 1
        switch event {
        case .created(let e):
            next.id = e.id
            next.name = e.name
        case .baseImageImported(let e):
            next.baseImage = e.image
        case .textLayerAdded(let e):
            next.textLayers.append(e.layer)
            if let number = Int(e.layer.id.dropFirst()), number >= next.nextLayerNumber {
                next.nextLayerNumber = number + 1
            }
        case .textLayerEdited(let e):
            if let index = next.textLayers.firstIndex(where: { $0.id == e.id }) {
                if let text = e.text { next.textLayers[index].text = text }
                if let box = e.box { next.textLayers[index].box = box }
                if let style = e.style { next.textLayers[index].style = style }
            }
        case .textLayerRemoved(let e):
            next.textLayers.removeAll { $0.id == e.id }
        case .headMoved:
            break
        }
        return next
    }
}
