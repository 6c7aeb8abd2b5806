// Whoever renders also decodes, runs filters and holds rasters: MemeryRender's users see
// MemeryPixels' types through it, as when they were one module.
@_exported import MemeryPixels
