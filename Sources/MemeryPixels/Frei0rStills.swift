import MemeryCore

/// frei0r was made for video editors, whose defaults leave a clip as it was until someone
/// turns a knob: Kdenlive and Shotcut pass frei0r's 0..1 values straight through MLT, as
/// Memery does, and show saturat0r at 0.125 (a saturation of 1.0 of 8, no change).
/// Memery applies a filter to a still picture in one step, so each default here shows on a
/// photo what its filter does; the values are frei0r's own 0..1 fractions, picked by looking
/// at each filter on a photo. What a still picture cannot show is not offered.
enum Frei0rStills {
    /// Defaults that replace the plugin's own, by filter and parameter id.
    static let defaults: [String: [String: FilterValue]] = [
        "frei0r.3dflippo": ["y-axis-rotation": .number(0.45)],                          // 0.5 is no turn
        "frei0r.3-point-color-balance": ["gray-color": .color(Color(red: 0xa0, green: 0x80, blue: 0x60)),
                                         "split-preview": .boolean(false)],              // a warm grey made neutral, on the whole picture
        "frei0r.alphaspot": ["size-x": .number(0.35), "size-y": .number(0.45)],        // a spot the picture shows through, not a dot
        "frei0r.brightness": ["brightness": .number(0.65)],                             // 0.5 is no change
        "frei0r.c0rners": ["corner-2-y": .number(0.4), "transparent-background": .boolean(true)],  // corners sit at 1/3 and 2/3 of their range
        "frei0r.coloradj-rgb": ["r": .number(0.7), "b": .number(0.35)],                 // 0.5 is no change
        "frei0r.contrast0r": ["contrast": .number(0.7)],
        "frei0r.curves": ["show-curves": .boolean(false), "curve-point-number": .number(0.3),
                          "point-3-input-value": .number(0.5), "point-3-output-value": .number(0.7)],  // a lift of the mid-tones, no graph drawn on the picture
        "frei0r.defish0r": ["amount": .number(0.7)],
        "frei0r.edgeglow": ["lthresh": .number(0.2), "lupscale": .number(0.5), "lredscale": .number(0.5)],
        "frei0r.facebl0r": ["smallest": .number(0.03), "largest": .number(0.3)],          // faces of a photo's size, not a video's (up to 500 px)
        "frei0r.flippo": ["x-axis": .boolean(true)],
        // Every time: at 0.5 one still in ten came out untouched (a random frame skipped), and the test with it.
        "frei0r.glitch0r": ["glitch-frequency": .number(1), "color-glitching-intensity": .number(0.5), "block-height": .number(0.3)],
        "frei0r.hqdn3d": ["spatial": .number(0.5), "temporal": .number(0)],             // one picture: spatial denoising only
        "frei0r.hueshift0r": ["hue": .number(0.3)],
        "frei0r.lens-correction": ["correction-near-center": .number(0.4), "correction-near-edges": .number(0.35)],
        "frei0r.levels": ["show-histogram": .boolean(false), "input-black-level": .number(0.15), "input-white-level": .number(0.8)],
        "frei0r.nosync0r": ["hsync": .number(0.3)],
        "frei0r.perspective": ["top-left": .point(Point(x: 0.1, y: 0.1)), "top-right": .point(Point(x: 0.9, y: 0))],
        "frei0r.rgbsplit0r": ["vertical-split-distance": .number(0.6), "horizontal-split-distance": .number(0.6)],
        "frei0r.saturat0r": ["saturation": .number(0.3)],                               // 0.125 is no change
        "frei0r.scale0tilt": ["scale-x": .number(0.45), "scale-y": .number(0.45), "tilt-x": .number(0.55), "tilt-y": .number(0.55)],
        "frei0r.select0r": ["invert-selection": .boolean(true)],                        // removes the key colour, not everything else
        "frei0r.sharpness": ["amount": .number(0.8), "size": .number(0.5)],
        "frei0r.sop-sat": ["saturation": .number(0.3)],                                 // 0.1 is no change
        "frei0r.squareblur": ["kernel-size": .number(0.02)],
        "frei0r.threshold0r": ["threshold": .number(0.5)],                             // 0 turns every pixel white
        "frei0r.transparency": ["transparency": .number(0.5)],                         // 0 makes the picture vanish
        "frei0r.white-balance": ["neutral-color": .color(Color(red: 0xff, green: 0xd0, blue: 0xa0))],
        "frei0r.white-balance-lms-space": ["color-temperature": .number(0.2)],
    ]

    /// String parameters, which Memery does not show: set where the plugin's own default
    /// does not work on Debian (OpenCV's face model lives under opencv4 there, from
    /// opencv-data). Set only when the file is there.
    static let strings: [String: [String: String]] = [
        "frei0r.facebl0r": ["classifier": faceModel],
        "frei0r.opencvfacedetect": ["classifier": faceModel],
    ]
    static let faceModel = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml"

    /// Filters that find something in one frame and act on it in the next (facebl0r finds
    /// a face, then tracks and blurs it), and how many frames of the same picture they are
    /// shown, at 25 a second; the last is kept.
    static let frames: [String: Int] = ["frei0r.facebl0r": 2]

    /// Filters that work across a video's frames. On one picture they do nothing, darken it
    /// or blank it (each keeps or compares earlier frames, or moves with time), so they are
    /// not offered; asking for one says why.
    static let videoOnly: [String: String] = [
        "frei0r.aech0r": "it echoes earlier frames",
        "frei0r.baltan": "it blends each frame with the ones before",
        "frei0r.bgsubtract0r": "it takes the first frame as the background and removes it from the rest",
        "frei0r.delay0r": "it shows an earlier frame",
        "frei0r.delaygrab": "it shows parts of earlier frames",
        "frei0r.light-graffiti": "it paints the light that moves from frame to frame",
        "frei0r.nervous": "it shuffles the frames",
        "frei0r.nikon-d90-stairstepping-fix": "it mends the steps in the Nikon D90's video",
        "frei0r.tehroxx0r": "it moves a copy of the picture around from frame to frame",
        "frei0r.timeout-indicator": "it counts down over a clip's time",
        "frei0r.vertigo": "it blends each frame with a turned copy of the one before",
    ]

    static func notOffered(_ ids: [String]) -> [String] {
        ids.compactMap { id in videoOnly[id].map { "\(id) is not offered: \($0), so on one picture it shows nothing of itself" } }
    }
}
