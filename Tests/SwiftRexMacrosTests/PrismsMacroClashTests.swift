#if Macros
import SwiftDiagnostics
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// `@Prisms` and the names of its own members: a case named like one is the macro's error on the
/// case, with a fix-it renaming it where the new name is free.
@Suite struct PrismsMacroClashTests {
    static func clash(_ name: String) -> String {
        "@Prisms generates a member named '\(name)' in this enum, so a case cannot have that name (rename the case)"
    }

    @Test func aCaseNamedCaseIndexIsAnErrorOnTheCaseWithAFixItRenamingIt() {
        assertExpansion(
            """
            @Prisms
            enum AppAction {
                case `caseIndex`(Int)
                case reset
            }
            """,
            expandedSource: """
                enum AppAction {
                    case `caseIndex`(Int)
                    case reset
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: Self.clash("caseIndex"), line: 3, column: 10, fixIts: [FixItSpec(message: "Rename the case to 'index'")])
            ],
            applyFixIts: ["Rename the case to 'index'"],
            fixedSource: """
                @Prisms
                enum AppAction {
                    case index(Int)
                    case reset
                }
                """
        )
    }

    @Test func casesNamedAllPrismsOrAllLanesAreErrorsWithFixItsToTheLowercaseName() {
        assertExpansion(
            """
            @Prisms
            enum AppAction {
                case AllPrisms(Int)
                case AllLanes
            }
            """,
            expandedSource: """
                enum AppAction {
                    case AllPrisms(Int)
                    case AllLanes
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: Self.clash("AllPrisms"), line: 3, column: 10, fixIts: [FixItSpec(message: "Rename the case to 'allPrisms'")]),
                DiagnosticSpec(
                    message: Self.clash("AllLanes"), line: 4, column: 10, fixIts: [FixItSpec(message: "Rename the case to 'allLanes'")]),
            ],
            applyFixIts: ["Rename the case to 'allPrisms'", "Rename the case to 'allLanes'"],
            fixedSource: """
                @Prisms
                enum AppAction {
                    case allPrisms(Int)
                    case allLanes
                }
                """
        )
    }

    @Test func noRenamingIsOfferedWhenTheNewNameIsTakenOrThereIsNone() {
        // `prism` and `lane` without payload are static members like `AppAction.prism`; with a
        // payload (`lane(Int)`) the case is a function, and its name is free.
        assertExpansion(
            """
            @Prisms
            enum AppAction {
                case AllPrisms
                case allPrisms
                case prism
                case lane(Int)
            }
            """,
            expandedSource: """
                enum AppAction {
                    case AllPrisms
                    case allPrisms
                    case prism
                    case lane(Int)
                }
                """,
            diagnostics: [
                DiagnosticSpec(message: Self.clash("AllPrisms"), line: 3, column: 10, fixIts: []),
                DiagnosticSpec(
                    message:
                        "@Prisms generates a member named 'prism' in this enum, so a case without payload cannot have that name (rename the case)",
                    line: 5, column: 10, fixIts: []),
            ]
        )
    }

    @Test func aCaseNamedCaseIndexWhenTheEnumNumbersItsCasesIsADeclaredNameClash() {
        assertExpansion(
            """
            @Prisms
            enum AppAction {
                case caseIndex
                var `caseIndex`: Int { 0 }
            }
            """,
            expandedSource: """
                enum AppAction {
                    case caseIndex
                    var `caseIndex`: Int { 0 }
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Prisms generates a property named after this case, but the enum already declares a member with that name",
                    line: 3, column: 10
                )
            ]
        )
    }

    @Test func membersTheEnumDeclaresUnderAGeneratedNameAreErrorsOnThem() {
        assertExpansion(
            """
            @Prisms
            enum AppAction {
                case counter(Int)
                struct AllPrisms {}
                typealias AllLanes = Int
                static var prism: Int { 0 }
                static let lane = 1
                var prism: Int { 0 }
            }
            """,
            expandedSource: """
                enum AppAction {
                    case counter(Int)
                    struct AllPrisms {}
                    typealias AllLanes = Int
                    static var prism: Int { 0 }
                    static let lane = 1
                    var prism: Int { 0 }
                }
                """,
            diagnostics: [
                DiagnosticSpec(
                    message: "@Prisms generates a member named 'AllPrisms' in this enum, so a type cannot have that name (rename the type)",
                    line: 4, column: 12),
                DiagnosticSpec(
                    message: "@Prisms generates a member named 'AllLanes' in this enum, so a type cannot have that name (rename the type)",
                    line: 5, column: 15),
                DiagnosticSpec(
                    message:
                        "@Prisms generates a member named 'prism' in this enum, so a static property cannot have that name (rename the static property)",
                    line: 6, column: 16),
                DiagnosticSpec(
                    message:
                        "@Prisms generates a member named 'lane' in this enum, so a static property cannot have that name (rename the static property)",
                    line: 7, column: 16),
            ]
        )
    }
}
#endif
