import Hummingbird

/// Whole numbers in a request's query, refused (400) outside their range.
enum QueryNumber {
    /// A query parameter that must be a whole number in `range` when present.
    static func read(_ request: Request, _ name: String, default value: Int64, in range: ClosedRange<Int64>) throws -> Int64 {
        guard let text = request.uri.queryParameters.get(name) else { return value }
        guard let number = Int64(text), range.contains(number) else {
            throw HubError.badRequest("?\(name)= must be a whole number from \(range.lowerBound) to \(range.upperBound), got \(text.prefix(40))")
        }
        return number
    }
}
