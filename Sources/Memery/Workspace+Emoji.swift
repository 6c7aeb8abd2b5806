public import Foundation
import MemeryCore
import MemeryRender
import MemeryStore

extension Workspace {
    /// An emoji drawn by the engine (Noto Color Emoji) into a PNG, and the picture it makes
    /// for an image layer. The PNG is stored as a blob with the edit, so every machine and
    /// every older build draws the sticker from the same pixels, whatever fonts it has.
    func emojiPicture(_ text: String) throws -> (data: Data, image: BaseImage) {
        let raster = try EmojiPicture.render(text)
        let data = try ImageEncoder.encode(raster, as: .png)
        let image = BaseImage(blob: BlobHash.of(data), width: raster.width, height: raster.height, format: "png", sourceName: "emoji \(text)")
        return (data, image)
    }
}
