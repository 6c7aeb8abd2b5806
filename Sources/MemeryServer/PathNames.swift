import Foundation
import Hummingbird

extension Parameters {
    /// A creation's name from the path: percent-decoded, since names may hold spaces and
    /// any script.
    func creationName() throws -> String {
        let raw = try require("name")
        return raw.removingPercentEncoding ?? raw
    }
}
