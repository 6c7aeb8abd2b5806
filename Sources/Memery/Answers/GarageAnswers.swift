import MemeryCore

/// A garage image as answers show it: its name, tags and picture.
public struct GarageItemAnswer: Encodable, Sendable {
    public var name: String
    public var tags: [String]
    public var image: PictureAnswer

    public init(_ item: Garage.Item) {
        name = item.name; tags = item.tags; image = PictureAnswer(item.image)
    }
}

/// A saved template: its size, its base picture (null for a blank canvas) and its text boxes.
public struct TemplateAnswer: Encodable, Sendable {
    public var name: String
    public var width: Int
    public var height: Int
    @Nullable public var baseImage: PictureAnswer?
    public var layers: [LayerAnswer]

    public init(_ t: Templates.Template) {
        name = t.name; width = t.canvas.width; height = t.canvas.height
        baseImage = t.baseImage.map { PictureAnswer($0) }
        layers = t.layers.enumerated().map { LayerAnswer($1, position: $0 + 1) }
    }
}
