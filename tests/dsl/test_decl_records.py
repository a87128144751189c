"""The compiler's declarations are records (dsl/decls/): one per keyword, each with its
compile function, properties, form and doc, and what reads the keywords and property words
(the compiler's dispatch and hints, completion, the editor grammar) reads the registry."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from clankwork.dsl import compiler
from clankwork.dsl.compiler import DECL_KINDS, INSIDE, PROPERTIES, compile_text, property_words
from clankwork.dsl.decls import DECLARATIONS, declaration
from clankwork.dsl.decls.registry import withdraw
from clankwork.dsl.parser import Stmt
from clankwork.tools.lsp_complete import complete, pack_names
from clankwork.tools.textmate import grammar_text

# The keywords a file may declare, in the order hints and completion list them (as the
# compiler's hand-written table had them before the records).
KEYWORDS = (
    "pack",
    "include",
    "card",
    "monster",
    "reserve",
    "event",
    "token",
    "board",
    "module",
    "rules",
    "resource",
    "way",
    "dragon",
    "sticker",
    "passage",
    "contract",
    "patron",
    "goal",
    "campaign",
    "replace",
    "remove",
    "change",
    "on",
)
# Lines that go inside a block: a record each, with the hint for one written at the top.
PARTS = (
    "step",
    "space",
    "path",
    "action",
    "scenario",
    "extends",
    "version",
    "title",
    "description",
)
# The declarations (and parts) whose blocks had property words, in their order.
WITH_PROPERTIES = (
    "pack",
    "card",
    "token",
    "board",
    "module",
    "space",
    "path",
    "resource",
    "way",
    "dragon",
)


def test_every_keyword_has_exactly_one_record_in_order() -> None:
    assert tuple(DECL_KINDS) == KEYWORDS
    assert sorted(DECLARATIONS) == sorted((*KEYWORDS, *PARTS))
    assert all(DECLARATIONS[k].compile is not None for k in KEYWORDS)
    assert all(DECLARATIONS[k].compile is None and DECLARATIONS[k].inside for k in PARTS)
    assert sorted(INSIDE) == sorted(PARTS)


def test_the_compiler_keeps_no_handwritten_declaration_method() -> None:
    """Dispatch goes through the records: a `decl_KIND` method would be a second table."""
    left = [n for n in dir(compiler._Compiler) if n.startswith("decl_")]
    assert left == [], left


def test_each_record_says_what_it_is() -> None:
    for keyword, record in DECLARATIONS.items():
        assert record.keyword == keyword
        assert record.doc, keyword
        assert record.form, keyword
    assert tuple(PROPERTIES) == WITH_PROPERTIES
    assert all(PROPERTIES[k] for k in WITH_PROPERTIES)
    assert PROPERTIES["card"][:3] == ("copies", "cost", "fight")
    assert "crossing costs" in PROPERTIES["token"]


def test_registering_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="registered twice"):
        declaration("card")(lambda c, st: None)


@pytest.fixture
def gadget() -> Iterator[list[str]]:
    """A declaration `gadget NAME { shiny }` registered for one test, then withdrawn."""
    seen: list[str] = []

    @declaration("gadget", properties=("shiny",), form="gadget NAME { shiny }")
    def compile_gadget(c: compiler._Compiler, st: Stmt) -> None:
        """`gadget NAME { shiny }`: a test's own declaration."""
        named = c._name(st, "gadget")
        if named is not None:
            seen.append(named[0])

    try:
        yield seen
    finally:
        withdraw("gadget")


def test_a_registered_declaration_compiles_and_is_offered(gadget: list[str]) -> None:
    assert "gadget" in DECL_KINDS and DECL_KINDS[-1] == "gadget"
    assert PROPERTIES["gadget"] == ("shiny",)
    assert "shiny" in property_words()
    result = compile_text('pack p { version "1" }\ngadget Widget { shiny }\n')
    assert gadget == ["Widget"]
    assert not [d for d in result.diagnostics if d.code == "CW101"]
    # A misspelt keyword is hinted with it, and the list of what a file holds names it.
    typo = compile_text('pack p { version "1" }\ngadgit Widget { shiny }\n')
    (unknown,) = [d for d in typo.diagnostics if d.code == "CW101"]
    assert unknown.hint == 'did you mean "gadget"?'
    labels = [i.label for i in complete("", 0, 0, pack_names(None, []))]
    assert "gadget" in labels
    assert "gadget" in grammar_text()


def test_a_withdrawn_declaration_is_unknown_again(gadget: list[str]) -> None:
    withdraw("gadget")
    try:
        assert "gadget" not in DECL_KINDS
        result = compile_text('pack p { version "1" }\ngadget Widget { shiny }\n')
        (unknown,) = [d for d in result.diagnostics if d.code == "CW101"]
        assert unknown.hint is not None and "or on declarations" in unknown.hint
        assert gadget == []
    finally:
        declaration("gadget")(lambda c, st: None)


def test_a_part_at_the_top_of_a_file_says_where_it_goes() -> None:
    result = compile_text('pack p { version "1" }\nspace Hall { hq }\n')
    (unknown,) = [d for d in result.diagnostics if d.code == "CW101"]
    assert unknown.hint == DECLARATIONS["space"].inside


def test_a_pack_line_at_the_top_of_a_file_says_it_goes_in_the_pack_block() -> None:
    """`extends acqinc` under the pack line (not in its block) was "a file holds pack,
    include, card, ..." with no word of where it goes."""
    result = compiler.compile_text('pack p { version "1" }\nextends acqinc\n', "p.clank")
    (d,) = [d for d in result.diagnostics if d.code == "CW101"]
    assert d.hint == "`extends` goes inside the pack's block: pack NAME { extends acqinc }"
