//! The analyzer: how text becomes index terms, the same way for documents and queries.
//!
//! - A *word* is a run of letters, digits and combining marks (so `e` + U+0301 stays one word).
//!   Each word is folded with NFKC and full Unicode lower-casing, so `Café` (NFC), `Cafe\u{301}`
//!   (NFD), `ＣＡＦＥ` (full width) and `café` give one term.
//! - Han, Hiragana, Katakana and Hangul have no spaces between words: a run of them is indexed
//!   as overlapping character bigrams (a lone character as itself), Lucene's CJK bigram scheme,
//!   so a name written without spaces inside a sentence is found by a phrase of its bigrams.
//!   Dictionary segmentation (jieba, lindera) would add whole-word terms; the bigrams alone
//!   already find every substring of two characters or more.
//!
//! Offsets of each token are byte offsets into the original text (before folding), which is
//! what the search uses to point at a hit.

use tantivy::tokenizer::{Token, TokenStream, Tokenizer};
use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

/// The name the analyzer is registered under in every index.
pub const NAME: &str = "masf";

/// Longest term kept (bytes after folding); longer words are cut (binary noise).
const MAX_TERM: usize = 64;

/// Whether `c` is written without spaces between words (bigrammed).
pub fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF      // Hiragana, Katakana
        | 0x3100..=0x312F    // Bopomofo
        | 0x31F0..=0x31FF    // Katakana extensions
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xAC00..=0xD7AF    // Hangul syllables
        | 0xF900..=0xFAFF    // CJK compatibility ideographs
        | 0xFF66..=0xFF9F    // half-width Katakana
        | 0x20000..=0x3FFFF) // CJK extensions B…
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || is_combining_mark(c)
}

/// Folds one word: NFKC, then lower case.
pub fn fold(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for c in word.nfkc() {
        out.extend(c.to_lowercase());
    }
    if out.len() > MAX_TERM {
        let mut end = MAX_TERM;
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        out.truncate(end);
    }
    out
}

/// The tokens of `text`: `(term, byte start, byte end)` in order.
pub fn tokens(text: &str) -> Vec<(String, usize, usize)> {
    Tokens::new(text).collect()
}

/// The tokens of a text, made as they are asked for (a search that looks for its first match
/// in a long text stops there).
pub struct Tokens<'a> {
    text: &'a str,
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
    pending: std::collections::VecDeque<(String, usize, usize)>,
}

impl<'a> Tokens<'a> {
    pub fn new(text: &'a str) -> Self {
        Self {
            text,
            chars: text.char_indices().peekable(),
            pending: std::collections::VecDeque::new(),
        }
    }
}

impl Iterator for Tokens<'_> {
    type Item = (String, usize, usize);

    fn next(&mut self) -> Option<Self::Item> {
        let text = self.text;
        while self.pending.is_empty() {
            let &(start, c) = self.chars.peek()?;
            if is_cjk(c) {
                // A run of CJK characters: bigrams (a lone character alone).
                let mut run: Vec<(usize, char)> = Vec::new();
                while let Some(&(i, c)) = self.chars.peek() {
                    if !is_cjk(c) {
                        break;
                    }
                    run.push((i, c));
                    self.chars.next();
                }
                let end_of = |k: usize| run[k].0 + run[k].1.len_utf8();
                if run.len() == 1 {
                    self.pending
                        .push_back((fold(&text[run[0].0..end_of(0)]), run[0].0, end_of(0)));
                } else {
                    for k in 0..run.len() - 1 {
                        self.pending.push_back((
                            fold(&text[run[k].0..end_of(k + 1)]),
                            run[k].0,
                            end_of(k + 1),
                        ));
                    }
                }
            } else if is_word(c) {
                let mut end = start;
                while let Some(&(i, c)) = self.chars.peek() {
                    if !is_word(c) || is_cjk(c) {
                        break;
                    }
                    end = i + c.len_utf8();
                    self.chars.next();
                }
                let term = fold(&text[start..end]);
                if !term.is_empty() {
                    self.pending.push_back((term, start, end));
                }
            } else {
                self.chars.next();
            }
        }
        self.pending.pop_front()
    }
}

/// The analyzer as a tantivy tokenizer.
#[derive(Clone, Default)]
pub struct Analyzer;

/// The tokens of one text, handed out one at a time.
pub struct Stream {
    tokens: std::vec::IntoIter<(String, usize, usize)>,
    token: Token,
    position: usize,
}

impl Tokenizer for Analyzer {
    type TokenStream<'a> = Stream;
    fn token_stream<'a>(&'a mut self, text: &'a str) -> Stream {
        Stream {
            tokens: tokens(text).into_iter(),
            token: Token::default(),
            position: 0,
        }
    }
}

impl TokenStream for Stream {
    fn advance(&mut self) -> bool {
        match self.tokens.next() {
            Some((text, from, to)) => {
                self.token = Token {
                    offset_from: from,
                    offset_to: to,
                    position: self.position,
                    text,
                    position_length: 1,
                };
                self.position += 1;
                true
            }
            None => false,
        }
    }
    fn token(&self) -> &Token {
        &self.token
    }
    fn token_mut(&mut self) -> &mut Token {
        &mut self.token
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(text: &str) -> Vec<String> {
        tokens(text).into_iter().map(|t| t.0).collect()
    }

    #[test]
    fn nfc_nfd_width_and_case_give_one_term() {
        let nfc = terms("Caf\u{e9}");
        assert_eq!(nfc, ["café"]);
        assert_eq!(terms("CAFE\u{301}"), nfc);
        assert_eq!(terms("ＣＡＦ\u{c9}"), nfc);
    }

    #[test]
    fn cjk_runs_become_bigrams_with_their_offsets() {
        let t = tokens("付款给张伟 ok");
        let got: Vec<_> = t.iter().map(|x| x.0.as_str()).collect();
        assert_eq!(got, ["付款", "款给", "给张", "张伟", "ok"]);
        assert_eq!((t[3].1, t[3].2), (9, 15));
        assert_eq!(terms("张"), ["张"]);
    }

    #[test]
    fn punctuation_splits_and_offsets_are_original_bytes() {
        let t = tokens("a-b  Ünïcode.");
        assert_eq!(t[2], ("ünïcode".to_string(), 5, 14));
    }
}
