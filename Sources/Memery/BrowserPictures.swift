public import Foundation
import MemeryRender

/// Bytes a server may hand a browser as a picture, judged by their signature (never by what
/// the site that gave them said): the front ends' one way to ask, without the decoder.
public enum BrowserPictures {
    /// "image/jpeg", "image/png", "image/gif", "image/webp" or "image/avif"; nil otherwise.
    public static func mediaType(of data: Data) -> String? { ImageDecoder.browserMediaType(of: data) }
}
