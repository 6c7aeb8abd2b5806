import MemeryRender

extension Raster {
    /// The largest difference of any channel of any pixel from `other`, over the area both
    /// cover (a test checks the sizes apart).
    public func worstDifference(from other: Raster) -> Int {
        var worst = 0
        for y in 0..<min(height, other.height) {
            for x in 0..<min(width, other.width) {
                let p = pixel(x: x, y: y), q = other.pixel(x: x, y: y)
                worst = max(worst, abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
            }
        }
        return worst
    }
}
