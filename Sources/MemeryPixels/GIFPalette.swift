/// One picture in at most 256 colours, chosen for it (a GIF frame holds no more): its own
/// colours when it has few enough, else median cut — the box of colours with the largest
/// squared error is split at its median along its longest side until there are 256 —
/// refined by moving each colour to the mean of the pixels it stands for.
struct GIFPalette {
    /// 0xRRGGBB.
    var colours: [UInt32]
    /// One entry per pixel, row by row.
    var indices: [UInt8]
    /// The entry that stands for transparent pixels (alpha under half), if any are.
    var transparentIndex: Int?

    /// `visible`: pixels as `GIFPalette.visible` gives them, row by row.
    init(_ visible: [UInt32]) {
        let pixels = visible.map { $0 == 0 ? Self.clear : $0 & 0xff_ffff }
        let transparent = visible.contains(0)
        let room = transparent ? 255 : 256
        if let exact = Self.exact(pixels, room: room) {
            (colours, indices) = exact
        } else {
            (colours, indices) = Self.medianCut(pixels, room: room)
        }
        if transparent {
            transparentIndex = colours.count
            for i in 0..<pixels.count where pixels[i] == Self.clear { indices[i] = UInt8(colours.count) }
            colours.append(0)
        }
    }

    /// What a GIF can show of each pixel, row by row: 0 where it is less than half opaque
    /// (a GIF pixel is shown or not), else 0xFFRRGGBB with the colour unpremultiplied.
    /// Read from the raster's words in place (no straight-RGBA copy of the picture first).
    static func visible(_ raster: Raster) -> [UInt32] {
        let width = raster.width, height = raster.height
        return [UInt32](unsafeUninitializedCapacity: width * height) { out, count in
            raster.withMutablePixels { pixels, stride in
                for y in 0..<height {
                    let row = UnsafeRawPointer(pixels + y * stride).assumingMemoryBound(to: UInt32.self)
                    for x in 0..<width {
                        let v = row[x], a = v >> 24
                        if a < 128 {
                            out[y * width + x] = 0
                        } else if a == 255 {
                            out[y * width + x] = v
                        } else {
                            let r = PixelConversion.unpremultiply(v >> 16 & 0xff, a), g = PixelConversion.unpremultiply(v >> 8 & 0xff, a)
                            out[y * width + x] = 0xff00_0000 | r << 16 | g << 8 | PixelConversion.unpremultiply(v & 0xff, a)
                        }
                    }
                }
            }
            count = width * height
        }
    }

    /// Not a colour: marks a transparent pixel.
    private static let clear: UInt32 = 0xff00_0000

    /// The picture's own colours, when there are no more than `room`.
    private static func exact(_ pixels: [UInt32], room: Int) -> ([UInt32], [UInt8])? {
        var index = [UInt32: UInt8]()
        var colours = [UInt32]()
        var indices = [UInt8](repeating: 0, count: pixels.count)
        for (i, pixel) in pixels.enumerated() where pixel != clear {
            if let known = index[pixel] {
                indices[i] = known
                continue
            }
            guard colours.count < room else { return nil }
            index[pixel] = UInt8(colours.count)
            indices[i] = UInt8(colours.count)
            colours.append(pixel)
        }
        return (colours.isEmpty ? [0] : colours, indices)
    }

    /// Colours are counted in bins of 6 bits a channel; each bin keeps its pixels' sums, so
    /// boxes and palette entries are exact means.
    private static func bin(_ pixel: UInt32) -> Int {
        let red = (pixel >> 18) & 0x3f, green = (pixel >> 10) & 0x3f, blue = (pixel >> 2) & 0x3f
        return Int(red << 12 | green << 6 | blue)
    }

    private struct Bins {
        var count = [Int](repeating: 0, count: 1 << 18)
        var sum = [(r: Int, g: Int, b: Int)](repeating: (0, 0, 0), count: 1 << 18)
        var squares = [Int](repeating: 0, count: 1 << 18)

        func mean(_ bin: Int) -> [Int] {
            let n = count[bin], s = sum[bin]
            return [(s.r + n / 2) / n, (s.g + n / 2) / n, (s.b + n / 2) / n]
        }
    }

    private static func medianCut(_ pixels: [UInt32], room: Int) -> ([UInt32], [UInt8]) {
        var bins = Bins()
        for pixel in pixels where pixel != clear {
            let b = bin(pixel)
            let (r, g, bl) = (Int(pixel >> 16 & 0xff), Int(pixel >> 8 & 0xff), Int(pixel & 0xff))
            bins.count[b] += 1
            bins.sum[b].r += r; bins.sum[b].g += g; bins.sum[b].b += bl
            bins.squares[b] += r * r + g * g + bl * bl
        }
        var occupied = (0..<(1 << 18)).filter { bins.count[$0] > 0 }
        // Boxes are ranges of `occupied`, reordered in place as they split.
        var boxes = [0..<occupied.count]
        func error(_ box: Range<Int>) -> Double {
            var n = 0, r = 0, g = 0, b = 0, squares = 0
            for bin in occupied[box] {
                n += bins.count[bin]; squares += bins.squares[bin]
                r += bins.sum[bin].r; g += bins.sum[bin].g; b += bins.sum[bin].b
            }
            return Double(squares) - Double(r * r + g * g + b * b) / Double(n)
        }
        var errors = [error(boxes[0])]
        while boxes.count < room {
            guard let worst = errors.indices.filter({ boxes[$0].count > 1 }).max(by: { errors[$0] < errors[$1] }), errors[worst] > 0 else { break }
            let box = boxes[worst]
            let means = occupied[box].map(bins.mean)
            let extents = (0..<3).map { channel in
                let values = means.map { $0[channel] }
                return values.max()! - values.min()!
            }
            let axis = extents.firstIndex(of: extents.max()!)!
            let sorted = zip(occupied[box], means).sorted { $0.1[axis] < $1.1[axis] }.map(\.0)
            occupied.replaceSubrange(box, with: sorted)
            let total = sorted.reduce(0) { $0 + bins.count[$1] }
            var seen = 0, split = box.lowerBound
            while split < box.upperBound - 1 {
                seen += bins.count[occupied[split]]
                split += 1
                if seen * 2 >= total { break }
            }
            boxes[worst] = box.lowerBound..<split
            errors[worst] = error(boxes[worst])
            boxes.append(split..<box.upperBound)
            errors.append(error(boxes.last!))
        }
        var palette = boxes.map { box -> [Int] in
            var n = 0, r = 0, g = 0, b = 0
            for bin in occupied[box] { n += bins.count[bin]; r += bins.sum[bin].r; g += bins.sum[bin].g; b += bins.sum[bin].b }
            return [(r + n / 2) / n, (g + n / 2) / n, (b + n / 2) / n]
        }
        // Each bin to its nearest entry; one round of moving entries to their pixels' mean.
        var nearest = [UInt8](repeating: 0, count: 1 << 18)
        for round in 0..<2 {
            for bin in occupied {
                let mean = bins.mean(bin)
                var best = 0, bestDistance = Int.max
                for (entry, colour) in palette.enumerated() {
                    let dr = mean[0] - colour[0], dg = mean[1] - colour[1], db = mean[2] - colour[2]
                    let distance = 2 * dr * dr + 4 * dg * dg + 3 * db * db  // green counts most to the eye
                    if distance < bestDistance { (best, bestDistance) = (entry, distance) }
                }
                nearest[bin] = UInt8(best)
            }
            guard round == 0 else { break }
            var sums = [(n: Int, r: Int, g: Int, b: Int)](repeating: (0, 0, 0, 0), count: palette.count)
            for bin in occupied {
                let entry = Int(nearest[bin])
                sums[entry].n += bins.count[bin]
                sums[entry].r += bins.sum[bin].r; sums[entry].g += bins.sum[bin].g; sums[entry].b += bins.sum[bin].b
            }
            for (entry, sum) in sums.enumerated() where sum.n > 0 {
                palette[entry] = [(sum.r + sum.n / 2) / sum.n, (sum.g + sum.n / 2) / sum.n, (sum.b + sum.n / 2) / sum.n]
            }
        }
        let colours = palette.map { UInt32($0[0]) << 16 | UInt32($0[1]) << 8 | UInt32($0[2]) }
        let indices = pixels.map { $0 == clear ? 0 : nearest[bin($0)] }
        return (colours, indices)
    }
}
