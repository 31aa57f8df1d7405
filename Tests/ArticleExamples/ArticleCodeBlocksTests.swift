import Foundation
import Testing

/// Every Swift code block of the DocC catalogues is compiled by this target: each must appear in
/// one of its files, line by line (indentation aside; a line of the file may begin with a binding
/// the block leaves out, `let lifted: AppBehavior = `, and `import` lines are the file's own).
/// Blocks that begin with `// Package.swift` are manifest fragments (PackageDescription, not
/// this module's code): `Scripts/check-dependent` builds a manifest of that shape instead.
@Suite struct ArticleCodeBlocksTests {
    /// The repository's root, from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A Swift code block of an article.
    struct Block: CustomStringConvertible {
        var file: String
        var line: Int
        var lines: [String]
        var description: String { "\(file):\(line)" }
    }

    /// The Swift code blocks of every article and landing page.
    static func blocks() throws -> [Block] {
        let sources = root.appendingPathComponent("Sources")
        var blocks: [Block] = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        for file in files where file.pathExtension == "md" && file.path.contains(".docc/") {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            var current: Block?
            for (index, line) in lines.enumerated() {
                if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                    current = Block(file: String(file.path.dropFirst(root.path.count + 1)), line: index + 1, lines: [])
                } else if let block = current, line.trimmingCharacters(in: .whitespaces) == "```" {
                    blocks.append(block)
                    current = nil
                } else {
                    current?.lines.append(line)
                }
            }
        }
        return blocks.sorted { ($0.file, $0.line) < ($1.file, $1.line) }
    }

    /// The lines of this target's Swift files, trimmed, by file.
    static func compiledFiles() throws -> [[String]] {
        let directory = root.appendingPathComponent("Tests/ArticleExamples")
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "swift" }
            .map { try normalized(String(contentsOf: $0, encoding: .utf8).components(separatedBy: "\n")) }
    }

    /// Lines without their indentation, blank lines dropped.
    static func normalized(_ lines: [String]) -> [String] {
        lines.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Whether `block` appears in `file` as consecutive lines.
    static func contains(_ file: [String], _ block: [String]) -> Bool {
        guard !block.isEmpty, block.count <= file.count else { return block.isEmpty }
        for start in 0...(file.count - block.count) where file[start].hasSuffix(block[0]) {
            if zip(file[start..<(start + block.count)], block).allSatisfy({ $0 == $1 || $0.hasSuffix(" " + $1) }) { return true }
        }
        return false
    }

    @Test func everySwiftCodeBlockOfTheArticlesIsCompiledHere() throws {
        let files = try Self.compiledFiles()
        let blocks = try Self.blocks()
        #expect(blocks.count > 15, "found \(blocks.count) blocks: is the catalogue where this test looks?")
        for block in blocks {
            let code = Self.normalized(block.lines).filter { !$0.hasPrefix("import ") && !$0.hasPrefix("@testable import ") }
            if code.first == "// Package.swift" { continue }
            #expect(files.contains { Self.contains($0, code) }, "the code block at \(block) is not in Tests/ArticleExamples verbatim")
        }
    }

    @Test func aChangedLineIsNotFound() {
        let file = Self.normalized(["let a = 1", "    let lifted: Int = feature.lift(x)", "print(a)"])
        #expect(Self.contains(file, ["feature.lift(x)", "print(a)"]))
        #expect(!Self.contains(file, ["feature.lift(y)", "print(a)"]))
        #expect(!Self.contains(file, ["print(a)", "let a = 1"]), "order matters")
        #expect(!Self.contains(file, ["ift(x)"]), "a line matches whole, or after a space")
    }
}
