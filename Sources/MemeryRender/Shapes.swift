import CPangoCairo
import Foundation
import MemeryCore

/// Rectangles, ellipses and freehand strokes, in a layer's own coordinates.
enum Shapes {
    static func draw(_ shape: ShapeContent, on cr: OpaquePointer) {
        switch shape.kind {
        case .rect:
            cairo_rectangle(cr, 0, 0, shape.width, shape.height)
        case .ellipse:
            cairo_save(cr)
            cairo_translate(cr, shape.width / 2, shape.height / 2)
            cairo_scale(cr, shape.width / 2, shape.height / 2)
            cairo_arc(cr, 0, 0, 1, 0, 2 * .pi)
            cairo_restore(cr)
        }
        if let fill = shape.fill {
            var color = fill
            color.alpha = UInt8((Double(fill.alpha) * shape.alpha).rounded())
            MemeText.setSource(cr, color)
            cairo_fill_preserve(cr)
        }
        if let stroke = shape.stroke, shape.strokeWidth > 0 {
            MemeText.setSource(cr, stroke)
            cairo_set_line_width(cr, shape.strokeWidth)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
            cairo_stroke_preserve(cr)
        }
        cairo_new_path(cr)
    }

    /// Strokes in order; an eraser stroke clears what the earlier ones drew beneath it.
    static func draw(_ drawing: DrawingContent, on cr: OpaquePointer) {
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        for stroke in drawing.strokes {
            guard let first = stroke.points.first else { continue }
            cairo_new_path(cr)
            cairo_move_to(cr, first.x, first.y)
            // A single point is drawn as a dot: a zero-length line with round caps.
            for point in stroke.points.count == 1 ? stroke.points : Array(stroke.points.dropFirst()) {
                cairo_line_to(cr, point.x, point.y)
            }
            cairo_set_line_width(cr, stroke.width)
            if stroke.erase {
                cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
            } else {
                cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
                MemeText.setSource(cr, stroke.color)
            }
            cairo_stroke(cr)
        }
        cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
    }
}
