import Foundation
public import HTTPTypes

/// Conditional answers by entity tag (RFC 9110 §13.1.2): `If-None-Match` holds `*` or a list
/// of tags, strong or weak (`W/"..."`), compared weakly for GET and HEAD. Both servers ask
/// here before they draw or read a picture a cache already has.
public enum EntityTag {
    /// True when the request's `If-None-Match` names `tag` (or any tag, with `*`): answer 304.
    public static func matches(_ headers: HTTPFields, _ tag: String) -> Bool {
        guard let field = headers[.ifNoneMatch] else { return false }
        let wanted = opaque(tag)
        for listed in field.split(separator: ",") {
            let candidate = listed.trimmingOptionalWhitespace
            if candidate == "*" || opaque(candidate) == wanted { return true }
        }
        return false
    }

    /// A tag without its weakness mark: the weak comparison looks at the quoted part alone.
    static func opaque(_ tag: some StringProtocol) -> Substring {
        let text = Substring(tag)
        return text.hasPrefix("W/") ? text.dropFirst(2) : text
    }
}
