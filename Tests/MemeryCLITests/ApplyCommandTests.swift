import Foundation
import Testing

@Suite struct ApplyCommandTests {
    /// Runs `memery apply NAME` with `lines` on standard input.
    func apply(_ s: Sandbox, _ name: String, _ lines: [String]) throws -> (status: Int32, replies: [[String: Any]], raw: [String]) {
        let input = s.path("in-\(UUID().uuidString).jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: input))
        let outcome = try s.run(["apply", name, "--file", input])
        #expect(!outcome.signaled)
        let raw = outcome.stdout.split(separator: "\n").map(String.init)
        let replies = try raw.map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        return (outcome.status, replies, raw)
    }

    @Test func everyOpIsAppliedAndAcknowledgedWithItsSequence() throws {
        let s = try Sandbox()
        try s.ok(["new", "bot", "--image", Paths.example])  // events 1-3 (the gallery's is 3)
        try s.ok(["garage", "add", Paths.example, "--name", "cat"])
        let lines = [
            #"{"op":"text","top":"hello","bottom":"world"}"#,
            ##"{"op":"text add","text":"free","box":"10,10,200,60","font":"DejaVu Sans","size":30,"color":"#ffd400","outline":"#000000","outline-width":2,"align":"left","caps":false}"##,
            #"{"op":"image add","file":"\#(Paths.example)","at":"5,5","scale":0.2,"rotate":-10,"opacity":0.8,"flip":"h"}"#,
            #"{"op":"image add","garage":"cat","scale":0.1}"#,
            ##"{"op":"shape add","ellipse":"0,0,50,50","fill":"none","stroke":"#000000","stroke-width":3}"##,
            ##"{"op":"draw","points":"1,1 20,20","width":4,"color":"#ff0000"}"##,
            #"{"op":"draw","points":"10,10","erase":true}"#,
            #"{"op":"layer set","id":"L1","set":{"x":40,"opacity":0.5,"caps":false}}"#,
            ##"{"op":"layer set","id":"L6","set":["fill=#00ff00"]}"##,
            #"{"op":"layer move","id":"L1","move":"front"}"#,
            #"{"op":"layer move","id":"L1","to":1}"#,
            #"{"op":"layer remove","id":"L2"}"#,
            #"{"op":"crop","box":"0,0,400,300"}"#,
            #"{"op":"rotate","degrees":-90}"#,
            #"{"op":"flip","axis":"v"}"#,
            #"{"op":"undo","steps":2}"#,
            #"{"op":"redo","branch":1}"#,
            #"{"op":"checkout","event":6}"#,
            #"{"op":"checkout","at":"0s"}"#,
        ]
        let (status, replies, raw) = try apply(s, "bot", lines)
        #expect(status == 0, "\(raw)")
        #expect(replies.count == lines.count)
        #expect(replies.allSatisfy { $0["ok"] as? Bool == true }, "\(raw)")
        #expect(raw[0] == #"{"ok":true,"seq":6,"version":4}"#, "the two captions are one edit: its last event is acknowledged")
        #expect(raw[1].hasPrefix(#"{"ok":true,"seq":7,"version":5,"layer":"L3","layerId":"L3."#), "\(raw[1])")
        #expect(replies[5]["layer"] as? String == "L7" && replies[6]["layer"] as? String == "L7")
        // Every acknowledged sequence is in the store, in order.
        let seqs = replies.compactMap { $0["seq"] as? Int }
        #expect(seqs == seqs.sorted() && Set(seqs).count == seqs.count)
        let log = try #require(try s.json(["log", "--json"]) as? [[String: Any]])
        let stored = Set(log.compactMap { $0["seq"] as? Int })
        #expect(Set(seqs).isSubset(of: stored))
        #expect(try s.ok(["verify"]).hasSuffix("ok"))
        try s.ok(["export", "bot", "-o", s.path("bot.png")])
    }

    @Test func badLinesAreRefusedAndTheRestGoOn() throws {
        let s = try Sandbox()
        try s.ok(["new", "bot", "--canvas", "100x100"])
        let (status, replies, raw) = try apply(s, "bot", [
            "this is not json",
            #"{"top":"no op"}"#,
            #"{"op":"teleport"}"#,
            #"{"op":"text add"}"#,
            #"{"op":"text add","text":"x","size":"big"}"#,
            ##"{"op":"text add","text":"x","colour":"#fff"}"##,
            #"{"op":"shape add","rect":"0,0,5,5","alpha":7}"#,
            #"{"op":"layer set","id":"L9","set":{"x":1}}"#,
            #"{"op":"undo"}"#,
            "",
            #"{"op":"text","top":"still works"}"#,
            #"{"op":"text","top":"still works"}"#,
        ])
        #expect(status == 1, "some lines were refused")
        #expect(replies.count == 11, "one reply per non-empty line: \(raw)")
        let errors = replies.prefix(9).map { $0["error"] as? String ?? "" }
        #expect(replies.prefix(9).allSatisfy { $0["ok"] as? Bool == false })
        #expect(errors[0].hasPrefix("not a JSON object"))
        #expect(errors[1].hasPrefix("no \"op\""))
        #expect(errors[2].hasPrefix("unknown op \"teleport\""))
        #expect(errors[3] == "\"text add\" needs \"text\"")
        #expect(errors[4] == "\"text add\" needs \"size\" as a number")
        #expect(errors[5].hasPrefix("\"text add\" takes no \"colour\""))
        #expect(errors[6] == "alpha must be between 0 and 1, got 7")
        #expect(errors[7].hasPrefix("no layer \"L9\""))
        #expect(errors[8].hasPrefix("nothing to undo"))
        #expect(replies.prefix(9).map { $0["line"] as? Int } == [1, 2, 3, 4, 5, 6, 7, 8, 9])
        #expect(raw[9].hasPrefix(#"{"ok":true,"seq":"#))
        #expect(raw[10] == #"{"ok":true,"seq":null,"version":3}"#, "nothing changed")
        #expect(try s.ok(["show", "bot"]).contains("\"still works\""))
    }

    @Test func applyRefusesAMissingCreationOrInput() throws {
        let s = try Sandbox()
        try s.fails(["apply", "ghost"], containing: "no creation named \"ghost\"")
        try s.ok(["new", "bot", "--canvas", "10x10"])
        try s.fails(["apply", "bot", "--file", s.path("none.jsonl")], containing: "cannot read")
    }

    /// A bot streaming edits is killed at random moments: every edit it saw acknowledged is
    /// in the store, and the store stays sound.
    @Test func killedWhileStreamingLosesNoAcknowledgedEdit() throws {
        let s = try Sandbox()
        try s.ok(["new", "stream", "--canvas", "200x200"])
        var acknowledgedTexts = [String]()
        for round in 0..<15 {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Paths.memery)
            process.arguments = ["apply", "stream", "--store", s.store]
            let input = Pipe(), output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let texts = (0..<400).map { "r\(round)-\($0)" }
            let writer = Thread {
                for text in texts {
                    let line = #"{"op":"text add","text":"\#(text)"}"# + "\n"
                    if (try? input.fileHandleForWriting.write(contentsOf: Data(line.utf8))) == nil { return }
                }
            }
            writer.start()
            // Two rounds in three are killed after the first acknowledgement, so that some
            // edits are acknowledged however slowly a busy machine starts the process; the
            // third at any moment from its start.
            var early = Data()
            if round % 3 != 0 {
                while !early.contains(UInt8(ascii: "\n")) {
                    let chunk = output.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    early += chunk
                }
            }
            usleep(UInt32.random(in: 20_000...300_000))
            kill(process.processIdentifier, SIGKILL)
            let replies = String(decoding: early + output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
            process.waitUntilExit()
            try? input.fileHandleForWriting.close()
            // Acknowledged lines answer the texts in order; a torn last line is not an acknowledgement.
            let complete = replies.filter { $0.hasPrefix("{\"ok\":true") && $0.hasSuffix("}") }
            acknowledgedTexts += texts.prefix(complete.count)
        }
        let layers = try #require(try s.json(["layer", "list", "stream", "--json"]) as? [[String: Any]])
        let stored = Set(layers.compactMap { $0["text"] as? String })
        let lost = acknowledgedTexts.filter { !stored.contains($0) }
        #expect(lost.isEmpty, "acknowledged but lost: \(lost.prefix(5))")
        #expect(!acknowledgedTexts.isEmpty)
        #expect(try s.ok(["verify"]).hasSuffix("ok"))
    }
}

@Suite struct ApplyWithoutANameTests {
    @Test func aBotDoesAllItsWorkInOneStreamNamingEachCreation() throws {
        let s = try Sandbox()
        let lines = [
            #"{"op":"garage add","file":"\#(Paths.example)","name":"cat","tags":["animal"]}"#,
            ##"{"op":"new","creation":"monday","canvas":"200x100","background":"#102030"}"##,
            #"{"op":"new","creation":"kitty","garage":"cat"}"#,
            #"{"op":"text","creation":"monday","top":"it is monday"}"#,
            #"{"op":"image add","creation":"monday","garage":"cat","scale":0.1}"#,
            #"{"op":"filter apply","creation":"kitty","filter":"org.memery.sepia","params":{"amount":0.5}}"#,
            #"{"op":"undo","creation":"monday"}"#,
            #"{"op":"text","top":"no creation"}"#,
            #"{"op":"text","creation":"ghost","top":"boo"}"#,
            #"{"op":"rename","creation":"kitty","to":"cat meme"}"#,
            #"{"op":"text","creation":"cat meme","bottom":"renamed"}"#,
            #"{"op":"favorite","creation":"cat meme"}"#,
            #"{"op":"template save","creation":"monday","template":"weekday"}"#,
            #"{"op":"new","creation":"tuesday","template":"weekday"}"#,
            #"{"op":"delete","creation":"tuesday"}"#,
            #"{"op":"garage tag","image":"cat","add":["meme"],"remove":["animal"]}"#,
        ]
        let input = s.path("bot.jsonl")
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: input))
        let outcome = try s.run(["apply", "--file", input])
        #expect(outcome.status == 1 && !outcome.signaled, "two lines were refused: \(outcome)")
        let replies = try outcome.stdout.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        #expect(replies.count == lines.count, "\(outcome.stdout)")
        let refused = replies.enumerated().filter { $0.element["ok"] as? Bool == false }.map { $0.offset + 1 }
        #expect(refused == [8, 9], "\(outcome.stdout)")
        #expect((replies[7]["error"] as? String)?.contains(#""text" needs a creation"#) == true, "\(replies[7])")
        #expect((replies[8]["error"] as? String)?.contains(#"no creation named "ghost""#) == true, "\(replies[8])")
        #expect(replies[0]["image"] as? String == "cat" && replies[0]["version"] == nil)
        #expect(replies[1]["creation"] as? String == "monday" && replies[1]["version"] as? Int == 2)
        #expect(replies[3]["creation"] as? String == "monday" && replies[3]["version"] as? Int == 3)
        #expect(replies[4]["layer"] as? String == "L2")
        #expect(replies[5]["filter"] as? Int == 1)
        #expect(replies[9]["creation"] as? String == "cat meme")
        // What the stream did is what the store holds.
        #expect(try s.ok(["list"]).contains("cat meme"))
        #expect(try s.ok(["show", "monday"]).contains("it is monday"))
        #expect(!(try s.ok(["show", "monday"]).contains("L2")), "the undo took the sticker away")
        #expect(try s.ok(["show", "cat meme"]).contains("renamed"))
        #expect(try s.ok(["trash"]) == "tuesday")
        #expect(replies[15]["image"] as? String == "cat" && replies[15]["seq"] is Int)
        #expect(try s.ok(["garage", "list"]).hasSuffix("#meme"), "the tags are now these")
        #expect(try s.ok(["verify"]).hasSuffix("ok"))
        // Every version answered is the number history shows for that edit.
        let history = try s.ok(["history", "monday", "--events"])
        #expect(history.contains("v3\t"), "\(history)")
    }

    @Test func everyCommandThatPrintsAResultSpeaksJSON() throws {
        let s = try Sandbox()
        let made = try #require(try s.json(["new", "j", "--canvas", "40x30", "--json"]) as? [String: Any])
        #expect(made["creation"] as? String == "j" && made["version"] as? Int == 2 && (made["id"] as? String)?.count == 36)
        let text = try #require(try s.json(["text", "add", "j", "hi", "--json"]) as? [String: Any])
        #expect(text["layer"] as? String == "L1" && text["seq"] as? Int != nil)
        let crop = try #require(try s.json(["crop", "j", "0,0,20,10", "--json"]) as? [String: Any])
        #expect(crop["width"] as? Int == 20 && crop["height"] as? Int == 10)
        let undo = try #require(try s.json(["undo", "j", "--json"]) as? [String: Any])
        let head = try #require(undo["head"] as? [String: Any])
        #expect(head["version"] as? Int == 3, "\(undo)")
        let same = try #require(try s.json(["layer", "set", "j", "L1", "x=20", "--json"]) as? [String: Any])
        #expect(same["layer"] as? String == "L1")
        let verify = try #require(try s.json(["verify", "--json"]) as? [String: Any])
        #expect(verify["ok"] as? Bool == true && verify["events"] as? Int != nil)
        let random = try #require(try s.json(["random", "--json"]) as? [String: Any])
        #expect(random["name"] as? String == "j")
        let quick = try #require(try s.json(["quick", Paths.example, "--top", "q", "-o", s.path("q.png"), "--json"]) as? [String: Any])
        #expect(quick["creation"] as? String == "chelsea" && quick["format"] as? String == "png")
        let log = try #require(try s.json(["log", "--json"]) as? [[String: Any]])
        #expect(log.contains { $0["creation"] as? String == "j" } && log.contains { $0["creation"] as? String == "j (gallery)" })
        #expect(try s.ok(["log"]).contains("\tj\tv1\t"), "log shows creation names")
    }
}
