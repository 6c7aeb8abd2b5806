import CGdkPixbuf


/// Moves pixels between gdk-pixbuf (RGB or RGBA bytes, straight alpha) and Cairo
/// (native-endian ARGB32 words, premultiplied alpha).
enum PixelConversion {
    /// `alreadyPremultiplied`: the loader handed over premultiplied colours as if straight
    /// (an 8-bit TIFF with associated alpha); they are kept, capped at their alpha.
    /// `into`: makes the raster for the pixels, by default a new one.
    /// `ignoringAlpha`: a fourth channel that is not alpha (a TIFF's unspecified extra sample) is left out.
    static func raster(from pixbuf: OpaquePointer, alreadyPremultiplied: Bool = false, ignoringAlpha: Bool = false,
                       into makeRaster: ImageDecoder.RasterMaker = { try Raster(width: $0, height: $1) }) throws -> Raster {
        let width = Int(gdk_pixbuf_get_width(pixbuf)), height = Int(gdk_pixbuf_get_height(pixbuf))
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf))
        let rowstride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        guard gdk_pixbuf_get_bits_per_sample(pixbuf) == 8, channels == 3 || channels == 4,
              let source = gdk_pixbuf_read_pixels(pixbuf) else {
            throw RenderError.corrupt(source: "the image", format: nil, reason: "unexpected pixel layout")
        }
        let raster = try makeRaster(width, height)
        raster.withMutablePixels { target, stride in
            for y in 0..<height {
                let from = source + y * rowstride
                let to = UnsafeMutableRawPointer(target + y * stride).assumingMemoryBound(to: UInt32.self)
                if channels == 3 {
                    for x in 0..<width {
                        let p = from + x * 3
                        to[x] = 0xff00_0000 | UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
                    }
                } else {
                    for x in 0..<width {
                        let p = from + x * 4
                        let a = ignoringAlpha ? 255 : UInt32(p[3])
                        if a == 255 {
                            to[x] = 0xff00_0000 | UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
                        } else if alreadyPremultiplied {
                            to[x] = a << 24 | min(UInt32(p[0]), a) << 16 | min(UInt32(p[1]), a) << 8 | min(UInt32(p[2]), a)
                        } else {
                            to[x] = a << 24 | premultiply(p[0], a) << 16 | premultiply(p[1], a) << 8 | premultiply(p[2], a)
                        }
                    }
                }
            }
        }
        return raster
    }

    /// A new pixbuf holding the raster; with `opaqueOver`, alpha is flattened onto that colour.
    static func pixbuf(from raster: Raster, opaqueOver background: (UInt8, UInt8, UInt8)? = nil) throws -> OpaquePointer {
        let keepAlpha = background == nil && !isOpaque(raster)
        guard let pixbuf = gdk_pixbuf_new(GDK_COLORSPACE_RGB, keepAlpha ? 1 : 0, 8, Int32(raster.width), Int32(raster.height)) else {
            throw RenderError.outOfMemory(width: raster.width, height: raster.height)
        }
        let channels = keepAlpha ? 4 : 3
        let rowstride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let target = gdk_pixbuf_get_pixels(pixbuf)!
        let (br, bg, bb) = background ?? (0, 0, 0)
        raster.withMutablePixels { source, stride in
            for y in 0..<raster.height {
                let from = UnsafeMutableRawPointer(source + y * stride).assumingMemoryBound(to: UInt32.self)
                let to = target + y * rowstride
                for x in 0..<raster.width {
                    let v = from[x]
                    let a = v >> 24
                    let p = to + x * channels
                    if a == 255 {  // most pixels of a photo: no arithmetic
                        p[0] = UInt8(truncatingIfNeeded: v >> 16); p[1] = UInt8(truncatingIfNeeded: v >> 8); p[2] = UInt8(truncatingIfNeeded: v)
                        if keepAlpha { p[3] = 255 }
                        continue
                    }
                    var r = v >> 16 & 0xff, g = v >> 8 & 0xff, b = v & 0xff
                    if keepAlpha {
                        if a != 0 && a != 255 { r = unpremultiply(r, a); g = unpremultiply(g, a); b = unpremultiply(b, a) }
                        p[0] = UInt8(r); p[1] = UInt8(g); p[2] = UInt8(b); p[3] = UInt8(a)
                    } else {
                        // Premultiplied colour over an opaque background: c + bg * (1 - a).
                        let inverse = 255 - a
                        p[0] = UInt8(r + (UInt32(br) * inverse + 127) / 255)
                        p[1] = UInt8(g + (UInt32(bg) * inverse + 127) / 255)
                        p[2] = UInt8(b + (UInt32(bb) * inverse + 127) / 255)
                    }
                }
            }
        }
        return pixbuf
    }

    /// Whether every pixel's alpha is 255. Each row is ANDed whole, a loop the compiler
    /// turns into vector instructions, and only then looked at: an early exit per pixel kept
    /// it scalar (a preview's check was 7 % of its render, perf, 2026-11-28).
    static func isOpaque(_ raster: Raster) -> Bool {
        raster.withMutablePixels { source, stride in
            for y in 0..<raster.height {
                let row = UnsafeMutableRawPointer(source + y * stride).assumingMemoryBound(to: UInt32.self)
                var all: UInt32 = .max
                for x in 0..<raster.width { all &= row[x] }
                if all >> 24 != 255 { return false }
            }
            return true
        }
    }

    @inline(__always) static func premultiply(_ c: UInt8, _ a: UInt32) -> UInt32 {
        let t = UInt32(c) * a + 128
        return (t + (t >> 8)) >> 8
    }

    @inline(__always) static func unpremultiply(_ c: UInt32, _ a: UInt32) -> UInt32 {
        min(255, (c * 255 + a / 2) / a)
    }
}

extension PixelConversion {
    /// The raster's pixels as tightly packed R, G, B, A bytes with straight alpha.
    static func straightRGBA(_ raster: Raster) -> [UInt8] {
        let width = raster.width, height = raster.height
        return [UInt8](unsafeUninitializedCapacity: width * height * 4) { bytes, initialized in
            raster.withMutablePixels { source, stride in
                let target = bytes.baseAddress!
                RowBands.forEach(height: height) { rows in
                    for y in rows {
                        let row = UnsafeRawPointer(source + y * stride).assumingMemoryBound(to: UInt32.self)
                        let out = target + y * width * 4
                        for x in 0..<width {
                            let v = row[x], a = v >> 24
                            var r = v >> 16 & 0xff, g = v >> 8 & 0xff, b = v & 0xff
                            if a != 255 && a != 0 { r = unpremultiply(r, a); g = unpremultiply(g, a); b = unpremultiply(b, a) }
                            let p = out + x * 4
                            p[0] = UInt8(truncatingIfNeeded: r); p[1] = UInt8(truncatingIfNeeded: g)
                            p[2] = UInt8(truncatingIfNeeded: b); p[3] = UInt8(truncatingIfNeeded: a)
                        }
                    }
                }
            }
            initialized = width * height * 4
        }
    }

    /// The raster's pixels as tightly packed Cairo words (B, G, R, A bytes, premultiplied).
    static func premultipliedBGRA(_ raster: Raster) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: raster.width * raster.height * 4)
        raster.withMutablePixels { source, stride in
            bytes.withUnsafeMutableBytes { target in
                for y in 0..<raster.height {
                    (target.baseAddress! + y * raster.width * 4).copyMemory(from: source + y * stride, byteCount: raster.width * 4)
                }
            }
        }
        return bytes
    }

    static func raster(straightRGBA bytes: [UInt8], width: Int, height: Int) throws -> Raster {
        let raster = try Raster(width: width, height: height)
        bytes.withUnsafeBufferPointer { source in
            raster.withMutablePixels { target, stride in
                RowBands.forEach(height: height) { rows in
                    for y in rows {
                        let row = UnsafeMutableRawPointer(target + y * stride).assumingMemoryBound(to: UInt32.self)
                        let from = source.baseAddress! + y * width * 4
                        for x in 0..<width {
                            let p = from + x * 4
                            let a = UInt32(p[3])
                            row[x] = a == 255 ? 0xff00_0000 | UInt32(p[0]) << 16 | UInt32(p[1]) << 8 | UInt32(p[2])
                                : a << 24 | premultiply(p[0], a) << 16 | premultiply(p[1], a) << 8 | premultiply(p[2], a)
                        }
                    }
                }
            }
        }
        return raster
    }

    /// Premultiplied words back into a raster; a colour above its alpha (a plugin's garbage)
    /// is clamped so Cairo never sees an invalid pixel.
    static func raster(premultipliedBGRA bytes: [UInt8], width: Int, height: Int) throws -> Raster {
        let raster = try Raster(width: width, height: height)
        raster.withMutablePixels { target, stride in
            for y in 0..<height {
                let row = UnsafeMutableRawPointer(target + y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    let a = bytes[i + 3]
                    row[x] = UInt32(a) << 24 | UInt32(min(bytes[i + 2], a)) << 16 | UInt32(min(bytes[i + 1], a)) << 8 | UInt32(min(bytes[i], a))
                }
            }
        }
        return raster
    }
}
