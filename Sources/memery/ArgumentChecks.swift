import ArgumentParser

/// A command (or group of options) whose arguments are checked together once parsed: one
/// needs another, two exclude each other, a number has a range.
/// Not argument-parser's `validate()`: the parser runs that before it names an option it
/// does not know, so `memery new a --blank` said "give one of --image FILE, ..." where it
/// should say `--blank` is unknown. `EntryPoint` calls `checkArguments()` after parsing, and
/// its ValidationError is said with the command's usage, as the parser's own.
protocol ArgumentChecks {
    func checkArguments() throws
}
