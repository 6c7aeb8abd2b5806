/// The domain is the facade's language: front ends that import Memery speak in its edits,
/// creations, layers and errors. The store and the renderer stay behind the facade.
@_exported import MemeryCore
