//! How each command of the vocabulary is typed at a shell, as plain data
//! (each entry's `shell`):
//! its words in order, its flags and which tool argument each fills, its
//! help and examples, other names for it. Nothing here knows clap: the
//! binary builds its command line from these entries, turns what was typed
//! back into the tool call's arguments (so the shell and MCP share one
//! parser and its errors), and docs/commands.md is written from them.
//!
//! The forms below are what the shell's conveniences need: positional words,
//! flags under another name (`--full` for `full_page`), switches that set
//! an argument to one of its values (`snapshot -i`: `mode` `interactive`),
//! words the shell spells its own way (`dialog ok`), words in any order
//! (`scroll e12 down 300`), words whose meaning follows an earlier one
//! (`tab new URL`, `tab switch t2`), a switch that leaves a word out
//! (`type --focused TEXT`), paths made absolute, and the few behaviours of
//! the shell alone, named by [`ShellOnly`].

/// A command's spelling at the shell: `rove NAME …`, other names for it,
/// and what the reference says of it.
#[derive(Debug)]
pub struct Shell {
    /// `rove NAME …`.
    pub spelling: Spelling,
    /// Other names for the command, each with its own words
    /// (`rove dblclick REF`: a click with `double` set).
    pub aliases: &'static [Alias],
    /// How the shell prints its answer.
    pub printed: Printed,
    /// Where docs/commands.md lists the command.
    pub section: Section,
    /// What docs/commands.md says of the command beyond its arguments:
    /// defaults, limits, errors, what the answer holds (markdown, one
    /// paragraph).
    pub reference: &'static str,
}

/// Another name for a command, with the arguments it fixes.
#[derive(Debug)]
pub struct Alias {
    /// The name typed (`dblclick`).
    pub name: &'static str,
    /// Its words, flags, help and examples.
    pub spelling: Spelling,
    /// Arguments the name itself gives (`double`: true).
    pub fixed: &'static [(&'static str, Literal)],
}

/// The words, flags, help and examples of one name.
#[derive(Debug)]
pub struct Spelling {
    /// What the command does, in a line (`rove --help` lists it).
    pub about: &'static str,
    /// Positional words, in order.
    pub words: &'static [Word],
    /// Flags.
    pub flags: &'static [Flag],
    /// Command lines that show it, each with an optional remark.
    pub examples: &'static [Example],
    /// A last line of help after the examples ("" for none).
    pub note: &'static str,
}

/// An example: a command line and what it shows ("" for nothing more).
#[derive(Debug, Clone, Copy)]
pub struct Example(pub &'static str, pub &'static str);

/// A positional word (or run of words).
#[derive(Debug)]
pub struct Word {
    /// How help names it: `REF`, `TEXT`, `REF TEXT`.
    pub name: &'static str,
    /// What it is, for `--help`.
    pub help: &'static str,
    /// How many words it takes, and what stands when none is typed.
    pub count: Count,
    /// Which arguments it fills.
    pub fills: Fills,
}

/// A flag (`--name VALUE`, or a switch `--name`).
#[derive(Debug)]
pub struct Flag {
    /// The long name, without the dashes.
    pub long: &'static str,
    /// The one-letter name, if any.
    pub short: Option<char>,
    /// What it does, for `--help`.
    pub help: &'static str,
    /// How help names its value(s) (`MS`, `X Y`); "" for a switch.
    pub value: &'static str,
    /// The value when the flag is not given ("" for none).
    pub default: &'static str,
    /// Which arguments it fills.
    pub fills: Fills,
    /// Other words or flags (their long names, or words' names) it cannot
    /// be given with.
    pub conflicts: &'static [&'static str],
}

/// How many words a positional takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Count {
    /// Exactly one.
    One,
    /// One, unless the flag of this long name is given instead
    /// (`click REF` or `click --at X Y`).
    OneUnless(&'static str),
    /// One or none.
    Optional,
    /// One, or this word when none is typed.
    Default(&'static str),
    /// One, or what the shell's behaviour of this name gives when none is
    /// typed (`screenshot`: a new file).
    OrElse(ShellOnly),
    /// One or more.
    Many,
    /// From `min` to `max`.
    Between(u8, u8),
    /// Any number, none too.
    Any,
}

/// Which tool arguments a word or a flag fills, and how.
#[derive(Debug, Clone, Copy)]
pub enum Fills {
    /// The argument of this name, from a value of this kind (a word that
    /// takes several values fills it with a list).
    Argument(&'static str, Kind),
    /// A flag's values, one argument each (`--at X Y`: `x`, `y`).
    Arguments(&'static [&'static str], Kind),
    /// A switch that gives an argument one of its values (`-i`: `mode`
    /// `interactive`; `--jpeg`: `format` `jpeg`).
    Sets(&'static str, Literal),
    /// A switch that leaves out the word of this argument (`type
    /// --focused TEXT`: no `ref`).
    Omits(&'static str),
    /// Words filling these arguments in order; an optional one is passed
    /// over when the word does not fit it (`mouse down [BUTTON] [X Y]`).
    InOrder(&'static [Slot]),
    /// Words in any order, each filling the first argument it fits
    /// (`scroll`: a ref, a direction, a distance).
    AnyOrder(&'static [Slot]),
    /// Words whose arguments follow the value an earlier word gave
    /// `argument` (`tab new URL`, `tab switch TAB`): the first case that
    /// names the value, else the case that names none.
    ByValue {
        /// The argument whose value decides.
        argument: &'static str,
        /// The cases.
        cases: &'static [Case],
    },
    /// How the shell runs the command, not what it asks: the binary's
    /// own behaviour of this name.
    Shell(ShellOnly),
}

/// One place in a run of words.
#[derive(Debug, Clone, Copy)]
pub struct Slot {
    /// The argument it fills.
    pub argument: &'static str,
    /// What it takes.
    pub kind: Kind,
    /// How many words it takes.
    pub takes: Takes,
}

/// How many words a slot takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Takes {
    /// One word.
    One,
    /// One word when it fits the slot's kind, else none.
    IfItFits,
    /// Every word left, as a list.
    Rest,
    /// Every word left, joined by spaces (`set device iPhone 15`).
    Joined,
}

/// The slots of [`Fills::ByValue`] for some values of the deciding
/// argument.
#[derive(Debug, Clone, Copy)]
pub struct Case {
    /// The values (none: every other value).
    pub values: &'static [&'static str],
    /// The words' slots for them (none: the words are refused).
    pub slots: &'static [Slot],
    /// Whether the slots that take one word are filled all or none (a
    /// point is two numbers).
    pub whole: bool,
}

impl Case {
    /// The case of these values, filling these slots.
    pub const fn new(values: &'static [&'static str], slots: &'static [Slot]) -> Case {
        Case {
            values,
            slots,
            whole: false,
        }
    }

    /// The case, its one-word slots filled all or none.
    pub const fn whole(self) -> Case {
        Case {
            whole: true,
            ..self
        }
    }
}

/// What a value is, and how the shell writes it into a tool call.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Kind {
    /// A switch: given, the argument is true.
    Switch,
    /// Text, as typed.
    Text,
    /// An element: a ref (`e7`) or a locator (`css=…`), as typed.
    Element,
    /// A file path, made absolute from the shell's folder.
    Path,
    /// A URL, or a path to a file that exists (made its `file://` URL).
    Url,
    /// A whole number, 0 or more.
    Integer,
    /// A number (negative ones too).
    Number,
    /// A number written with an optional letter before it (`r3` or `3`).
    Numbered(char),
    /// One of the argument's own values (its schema's), checked by the
    /// shell before anything runs; `aliases` are other words for some
    /// (`user-agent` for `user_agent`), `any_case` accepts `a4` for `A4`.
    Choice {
        /// (typed, the value it stands for).
        aliases: &'static [(&'static str, &'static str)],
        /// Whether case is ignored.
        any_case: bool,
    },
    /// One of these values of the argument (`is`: visible, enabled,
    /// checked), checked by the shell.
    Among(&'static [&'static str]),
    /// Words the shell spells its own way (`ok` for true); any other word
    /// goes on as typed, for the tool call's parser to judge.
    Words(&'static [(&'static str, Literal)]),
    /// Comma-separated values, as a list (`--modifiers Control,Shift`).
    List,
    /// Comma-separated numbers, as an object with these keys; `example`
    /// shows a good value (`--clip 0,0,800,600`).
    Numbers {
        /// The object's keys, in order.
        keys: &'static [&'static str],
        /// A value that fits.
        example: &'static str,
    },
    /// `KEY=VALUE` words, as a list of objects with these two keys
    /// (`fill-form e3=ada`: `{"ref": "e3", "value": "ada"}`).
    Pairs(&'static str, &'static str),
}

/// A value written in an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Literal {
    /// `true` or `false`.
    Bool(bool),
    /// A string.
    Text(&'static str),
}

/// Behaviours of the shell alone, which the binary carries out by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShellOnly {
    /// `open --stay`: no daemon; this process opens the page in a browser
    /// of its own and keeps it until interrupted.
    Stay,
    /// `open --timeout SECONDS`: the load's deadline of `--stay`.
    StayTimeout,
    /// `click --at X Y`: a click at a point, which is `mouse click`.
    ClickAt,
    /// `screenshot` without a path: a new file in rove's folder, since the
    /// shell cannot take an image inline.
    FreshScreenshot,
}

/// How the shell prints a command's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Printed {
    /// What happened, then the view or the data.
    Outcome,
    /// The value asked for first (a string bare), then what happened: a
    /// shell asking `eval` or `get` for a value wants the value.
    ValueFirst,
}

/// Where docs/commands.md lists a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Section {
    /// Open, back, forward, reload.
    Navigation,
    /// Snapshot, find, read, screenshot, wait, eval.
    Reading,
    /// Input to elements.
    Acting,
    /// Tabs, dialogs, closing.
    TabsAndDialogs,
    /// A command of an opt-in capability group: its group's section.
    Group,
}

impl Word {
    /// One word filling `argument`.
    pub const fn one(
        name: &'static str,
        help: &'static str,
        argument: &'static str,
        kind: Kind,
    ) -> Word {
        Word {
            name,
            help,
            count: Count::One,
            fills: Fills::Argument(argument, kind),
        }
    }

    /// The word, taking `count` words.
    pub const fn count(self, count: Count) -> Word {
        Word { count, ..self }
    }

    /// A run of words filling several arguments.
    pub const fn run(name: &'static str, help: &'static str, count: Count, fills: Fills) -> Word {
        Word {
            name,
            help,
            count,
            fills,
        }
    }
}

impl Flag {
    /// `--long`, a switch that makes `argument` true.
    pub const fn switch(long: &'static str, help: &'static str, argument: &'static str) -> Flag {
        Flag::filling(long, "", help, Fills::Argument(argument, Kind::Switch))
    }

    /// `--long VALUE`, whose value fills `argument`.
    pub const fn value(
        long: &'static str,
        value: &'static str,
        help: &'static str,
        argument: &'static str,
        kind: Kind,
    ) -> Flag {
        Flag::filling(long, value, help, Fills::Argument(argument, kind))
    }

    /// `--long` filling arguments as `fills` says.
    pub const fn filling(
        long: &'static str,
        value: &'static str,
        help: &'static str,
        fills: Fills,
    ) -> Flag {
        Flag {
            long,
            short: None,
            help,
            value,
            default: "",
            fills,
            conflicts: &[],
        }
    }

    /// The flag, also spelled `-c`.
    pub const fn short(self, c: char) -> Flag {
        Flag {
            short: Some(c),
            ..self
        }
    }

    /// The flag, with this value when it is not given.
    pub const fn default(self, default: &'static str) -> Flag {
        Flag { default, ..self }
    }

    /// The flag, refused together with these.
    pub const fn conflicts(self, conflicts: &'static [&'static str]) -> Flag {
        Flag { conflicts, ..self }
    }
}

impl Slot {
    /// A slot taking one word.
    pub const fn one(argument: &'static str, kind: Kind) -> Slot {
        Slot {
            argument,
            kind,
            takes: Takes::One,
        }
    }

    /// The slot, taking words as `takes` says.
    pub const fn takes(self, takes: Takes) -> Slot {
        Slot { takes, ..self }
    }
}

/// A choice among the argument's own values, exactly as spelled.
pub const CHOICE: Kind = Kind::Choice {
    aliases: &[],
    any_case: false,
};
