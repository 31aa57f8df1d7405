#if Macros
import SwiftDiagnostics
import SwiftSyntax

/// Every misuse `@Prisms` and `@Lenses` report, with its message.
enum MacroDiagnostic: String, DiagnosticMessage {
    case prismsNeedsAnEnum
    case prismsOnAStruct
    case lensesNeedsAStruct
    case lensesOnAnEnum
    case genericPrisms
    case genericLenses
    case noCases
    case duplicateCaseName
    case caseNameTaken
    case letWithInitialValue

    var message: String {
        switch self {
        case .prismsNeedsAnEnum:
            "@Prisms applies to an enum: it generates one prism per case"
        case .prismsOnAStruct:
            "@Prisms applies to an enum; a struct's properties get lenses from @Lenses"
        case .lensesNeedsAStruct:
            "@Lenses applies to a struct: it generates one lens per stored property"
        case .lensesOnAnEnum:
            "@Lenses applies to a struct; an enum's cases get prisms from @Prisms"
        case .genericPrisms:
            "@Prisms does not support generic enums: write their prisms by hand with Prism(preview:review:)"
        case .genericLenses:
            "@Lenses does not support generic structs: write their lenses by hand with Lens(_:) or Lens(get:set:)"
        case .noCases:
            "@Prisms found no case in this enum: nothing is generated"
        case .duplicateCaseName:
            "@Prisms generates one property per case name; cases that share a base name cannot each have one (rename one of them)"
        case .caseNameTaken:
            "@Prisms generates a property named after this case, but the enum already declares a member with that name"
        case .letWithInitialValue:
            "@Lenses skips a 'let' with an initial value: it is a constant, so there is nothing to set"
        }
    }

    var diagnosticID: MessageID {
        MessageID(domain: "SwiftRexMacros", id: rawValue)
    }

    var severity: DiagnosticSeverity {
        switch self {
        case .noCases, .letWithInitialValue: .warning
        default: .error
        }
    }
}

/// A case (`@Prisms`) or stored property (`@Lenses`) named like a member the macro generates
/// (`caseIndex`, `AllPrisms`, `AllLenses`, …): the two would share the name.
struct GeneratedMemberClash: DiagnosticMessage {
    /// `Prisms` or `Lenses`.
    let macro: String
    let name: String
    /// `case` or `property`.
    let declaration: String
    /// Narrows ``declaration`` where only some have the clash (` without payload`).
    var qualifier = ""

    var message: String {
        "@\(macro) generates a member named '\(name)' in this \(macro == "Prisms" ? "enum" : "struct"), "
            + "so a \(declaration)\(qualifier) cannot have that name (rename the \(declaration))"
    }

    var diagnosticID: MessageID { MessageID(domain: "SwiftRexMacros", id: "generatedMemberClash") }

    var severity: DiagnosticSeverity { .error }
}

/// A fix-it message.
struct MacroFixIt: FixItMessage {
    let message: String
    let fixItID: MessageID

    init(_ message: String) {
        self.message = message
        fixItID = MessageID(domain: "SwiftRexMacros", id: message)
    }
}

extension TokenSyntax {
    /// A fix-it renaming the declaration this token names (`what`: `case`, `property`) to `name`.
    func renamed(to name: String, what: String) -> FixIt {
        FixIt(
            message: MacroFixIt("Rename the \(what) to '\(name)'"),
            changes: [.replace(oldNode: Syntax(self), newNode: Syntax(with(\.tokenKind, .identifier(name))))]
        )
    }
}

extension AttributeSyntax {
    /// A fix-it replacing this attribute's name with `name`.
    func renamed(to name: String) -> FixIt {
        FixIt(
            message: MacroFixIt("Replace '@\(attributeName.trimmedDescription)' with '@\(name)'"),
            changes: [
                .replace(
                    oldNode: Syntax(attributeName),
                    newNode: Syntax(
                        IdentifierTypeSyntax(name: .identifier(name)).with(\.leadingTrivia, attributeName.leadingTrivia).with(
                            \.trailingTrivia, attributeName.trailingTrivia))
                )
            ]
        )
    }
}
#endif
