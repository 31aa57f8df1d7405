#if Macros
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// Which case names the members `@Prisms` generates leave free, and the names of its lane types.
extension PrismsMacro {
    /// One case the macro cannot generate for, and why.
    struct Clash {
        let item: Case
        let message: any DiagnosticMessage
        let fixIts: [FixIt]
    }

    /// Members the macro generates in the enum that a case's name can clash with, and a renaming
    /// that frees the name (used where nothing else has it). `prism` and `lane` are static
    /// properties: only a case without payload, itself a static member, has their name.
    static let generatedMembers: [(name: String, rename: String?, onlyWithoutPayload: Bool)] = [
        ("caseIndex", "index", false), ("AllPrisms", "allPrisms", false), ("AllLanes", "allLanes", false),
        ("prism", nil, true), ("lane", nil, true),
    ]

    /// Whether the enum declares its own `caseIndex` (the macro then numbers nothing).
    static func declaresCaseIndex(_ enumDecl: EnumDeclSyntax) -> Bool {
        declaredNames(enumDecl).contains("caseIndex")
    }

    /// The names of the enum's properties and argument-less functions (without backticks).
    static func declaredNames(_ enumDecl: EnumDeclSyntax) -> Set<String> {
        var taken = Set<String>()
        for member in enumDecl.memberBlock.members {
            if let variable = member.decl.as(VariableDeclSyntax.self) {
                for binding in variable.bindings {
                    if let token = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier { taken.insert(Spelling.name(of: token)) }
                }
            } else if let function = member.decl.as(FunctionDeclSyntax.self), function.signature.parameterClause.parameters.isEmpty {
                taken.insert(Spelling.name(of: function.name))
            }
        }
        return taken
    }

    /// Members of the enum the expansion would redeclare: a nested type or property named
    /// `AllPrisms` or `AllLanes`, a static `prism` or `lane`.
    static func declaredClashes(_ enumDecl: EnumDeclSyntax) -> [DeclaredNameClash] {
        DeclaredNameClash.find(in: enumDecl.memberBlock.members, types: ["AllPrisms", "AllLanes"], staticProperties: ["prism", "lane"])
    }

    /// Reports members the expansion would redeclare; `false` when there is one.
    static func checkDeclaredNames(_ enumDecl: EnumDeclSyntax, _ context: some MacroExpansionContext) -> Bool {
        let found = declaredClashes(enumDecl)
        for clash in found {
            let what = clash.isProperty ? (["prism", "lane"].contains(clash.name) ? "static property" : "property") : "type"
            context.diagnose(Diagnostic(node: clash.token, message: GeneratedMemberClash(macro: "Prisms", name: clash.name, declaration: what)))
        }
        return found.isEmpty
    }

    /// Reports cases whose property would clash; `false` when any does.
    static func checkNames(_ cases: [Case], in enumDecl: EnumDeclSyntax, _ context: some MacroExpansionContext) -> Bool {
        let found = clashes(cases, in: enumDecl)
        for clash in found {
            context.diagnose(Diagnostic(node: clash.item.element, message: clash.message, fixIts: clash.fixIts))
        }
        return found.isEmpty
    }

    /// The cases whose property would clash with another case's, with a declared member, or with
    /// a member the macro generates.
    static func clashes(_ cases: [Case], in enumDecl: EnumDeclSyntax) -> [Clash] {
        let declared = declaredNames(enumDecl)
        let generated = generatedMembers.filter { $0.name != "caseIndex" || !declared.contains("caseIndex") }
        let caseNames = Set(cases.map(\.name))
        var seen = Set<String>()
        var found: [Clash] = []
        for item in cases {
            if !seen.insert(item.name).inserted {
                found.append(Clash(item: item, message: MacroDiagnostic.duplicateCaseName, fixIts: []))
            } else if declared.contains(item.name) {
                found.append(Clash(item: item, message: MacroDiagnostic.caseNameTaken, fixIts: []))
            } else if let member = generated.first(where: { $0.name == item.name && (item.values.isEmpty || !$0.onlyWithoutPayload) }) {
                let rename = member.rename.flatMap { caseNames.contains($0) || declared.contains($0) ? nil : $0 }
                let qualifier = member.onlyWithoutPayload ? " without payload" : ""
                let message = GeneratedMemberClash(macro: "Prisms", name: item.name, declaration: "case", qualifier: qualifier)
                found.append(Clash(item: item, message: message, fixIts: rename.map { [item.element.name.renamed(to: $0, what: "case")] } ?? []))
            }
        }
        return found
    }

    /// Per case, the name of its lane type in `AllLanes`: the case's name capitalised, plus `Lane`,
    /// numbered when that is taken by another lane or by a case's lane property.
    static func laneTypeNames(_ cases: [Case]) -> [String] {
        var used = Set(cases.map(\.name))
        return cases.enumerated().map { index, item in
            let base = item.name.prefix(1).uppercased() + item.name.dropFirst() + "Lane"
            var name = base
            var number = index
            while !used.insert(name).inserted {
                name = base + "\(number)"
                number += 1
            }
            return Spelling.typeName(name)
        }
    }
}
#endif
