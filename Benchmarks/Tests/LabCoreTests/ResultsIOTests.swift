import Foundation
import Testing

@testable import LabCore

@Suite("Results JSON")
struct ResultsIOTests {
    @Test("encode then decode gives an equal file")
    func roundTrip() throws {
        var file = Fixture.results(instructions: true)
        file.benchmarks[0].stackBytes = 208
        file.benchmarks[0].stackMarkBytes = 144
        file.benchmarks[1].residentBytes = 1 << 20
        file.benchmarks[2].instructionIterations = 256
        let data = try ResultsIO.encode(file)
        #expect(try ResultsIO.decode(data, role: "test", path: "memory") == file)
    }

    @Test("records without size omit the key; sized records carry it")
    func sizeKey() throws {
        let file = ResultsFile(
            metadata: Fixture.metadata,
            benchmarks: [
                Fixture.record("naive.dispatch", ns: 1),
                Fixture.record("endomut.zerocopy", size: 100, ns: 1),
            ])
        let json = try #require(JSONSerialization.jsonObject(with: ResultsIO.encode(file)) as? [String: Any])
        let benchmarks = try #require(json["benchmarks"] as? [[String: Any]])
        #expect(benchmarks[0]["size"] == nil)
        #expect(benchmarks[1]["size"] as? Int == 100)
        let ns = try #require(benchmarks[0]["nsPerOp"] as? [String: Any])
        #expect(Set(ns.keys) == ["min", "median", "p90", "max"])
        #expect(benchmarks[0]["allocsPerOp"] != nil && benchmarks[0]["bytesPerOp"] != nil)
        #expect(benchmarks[0]["stackBytes"] == nil)
    }

    @Test("invalid JSON is reported as malformed, naming the file")
    func invalidJSON() {
        #expect {
            try ResultsIO.decode(Data("{ not json".utf8), role: "baseline", path: "b.json")
        } throws: { error in
            "\(error)".contains("baseline file 'b.json' is malformed") && "\(error)".contains("not valid JSON")
        }
    }

    @Test("a missing field is named in the error")
    func missingField() throws {
        var object = try #require(JSONSerialization.jsonObject(with: ResultsIO.encode(Fixture.results())) as? [String: Any])
        var benchmarks = try #require(object["benchmarks"] as? [[String: Any]])
        benchmarks[2].removeValue(forKey: "allocsPerOp")
        object["benchmarks"] = benchmarks
        let data = try JSONSerialization.data(withJSONObject: object)
        #expect {
            try ResultsIO.decode(data, role: "baseline", path: "b.json")
        } throws: { error in
            "\(error)".contains("missing field 'allocsPerOp'") && "\(error)".contains("benchmarks[2]")
        }
    }

    @Test("duplicate records and unordered statistics are rejected")
    func validation() throws {
        var duplicate = Fixture.results()
        duplicate.benchmarks.append(duplicate.benchmarks[0])
        #expect(throws: ResultsInputError.self) { try ResultsIO.decode(ResultsIO.encode(duplicate), role: "current", path: "c") }
        let unordered = Fixture.results().modifying("reducer.single") { $0.nsPerOp.min = 99 }
        #expect(throws: ResultsInputError.self) { try ResultsIO.decode(ResultsIO.encode(unordered), role: "current", path: "c") }
    }

    @Test("a missing file is a clear error")
    func missingFile() {
        #expect {
            try ResultsIO.load(path: "/nonexistent/lab/baseline.json", role: "baseline")
        } throws: { error in
            "\(error)" == "baseline file '/nonexistent/lab/baseline.json' does not exist"
        }
    }
}
