import Memery
import ArgumentParser

struct MemeryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "memery",
        abstract: "Make memes and keep editing them: every edit is an event in a durable store.",
        discussion: "Exit codes: 0 success, 1 bad input, 2 usage, 3 damaged store, 4 the hub could not be reached or refused.",
        version: "0.1.0",
        subcommands: [
            NewCommand.self, ListCommand.self, ShowCommand.self, TextCommand.self, ImageCommand.self,
            ShapeCommand.self, DrawCommand.self, LayerCommand.self, CropCommand.self, CanvasCommand.self, RotateCommand.self, FlipCommand.self,
            ExportCommand.self, QuickCommand.self, HistoryCommand.self, UndoCommand.self, RedoCommand.self,
            CheckoutCommand.self, RenameCommand.self, DeleteCommand.self, RestoreCommand.self, TrashCommand.self,
            PurgeCommand.self, FavoriteCommand.self, UnfavoriteCommand.self, MoveCommand.self, RandomCommand.self,
            FilterCommand.self, GarageCommand.self, TemplateCommand.self, ApplyCommand.self, LogCommand.self, VerifyCommand.self, SalvageCommand.self,
            FontsCommand.self, ServeCommand.self, HubCommand.self, AccountCommand.self, LoginCommand.self, LogoutCommand.self, SyncCommand.self,
            RecommendCommand.self, RecommendedCommand.self, SearchCommand.self, ShareCommand.self, PluginCommand.self, PluginWorkerCommand.self, ImageWorkerCommand.self,
        ])
}
