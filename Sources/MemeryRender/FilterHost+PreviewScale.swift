import MemeryCore

extension FilterHost {
    /// A filter's parameters for a picture drawn `scale` times its size (a preview): those
    /// the plugin declares in pixels (a blur's radius, a block's side) shrink with it, kept
    /// within the parameter's range; the others are the same at any size. A plugin that
    /// measures in pixels without saying so previews as it would on a smaller picture.
    public func parameters(_ params: [String: FilterValue], for id: String, atScale scale: Double) -> [String: FilterValue] {
        guard scale != 1, let descriptor = filter(id) else { return params }
        var scaled = params
        for param in descriptor.params where param.unit == .pixels {
            switch params[param.id] ?? param.defaultValue {
            case .number(let value):
                scaled[param.id] = .number(Swift.min(param.max, Swift.max(param.min, value * scale)))
            case .integer(let value):
                let shrunk = (Double(value) * scale).rounded()
                scaled[param.id] = .integer(Int64(Swift.min(param.max, Swift.max(param.min, shrunk))))
            case .point(let point):
                scaled[param.id] = .point(Point(x: point.x * scale, y: point.y * scale))
            default:
                continue
            }
        }
        return scaled
    }
}
