#if Macros
import SwiftRexMacrosPlugin
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// The macros under test, by attribute name.
let macroSpecs: [String: MacroSpec] = [
    "Prisms": MacroSpec(type: PrismsMacro.self, conformances: ["Prismatic", "CaseIndexable"]),
    "Lenses": MacroSpec(type: LensesMacro.self),
]

/// `assertMacroExpansion` reporting through Swift Testing.
func assertExpansion(
    _ source: String,
    expandedSource: String,
    diagnostics: [DiagnosticSpec] = [],
    applyFixIts: [String]? = nil,
    fixedSource: String? = nil,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
) {
    assertMacroExpansion(
        source,
        expandedSource: expandedSource,
        diagnostics: diagnostics,
        macroSpecs: macroSpecs,
        applyFixIts: applyFixIts,
        fixedSource: fixedSource,
        failureHandler: { failure in
            Issue.record(
                Comment(rawValue: failure.message),
                sourceLocation: SourceLocation(
                    fileID: failure.location.fileID, filePath: failure.location.filePath,
                    line: failure.location.line, column: failure.location.column
                )
            )
        },
        fileID: fileID, filePath: filePath, line: line, column: column
    )
}
#endif
