/** A line per choice of an option or argument; zsh and fish completion show it beside the value. */
export type ChoiceNotes = Readonly<Record<string, string>>;

// Commander has no place for them; completion reads them back from the same objects.
const notesOf = new WeakMap<object, ChoiceNotes>();

export function describeChoices<T extends object>(target: T, notes: ChoiceNotes): T {
  notesOf.set(target, notes);
  return target;
}

export function choiceNotes(target: object): ChoiceNotes {
  return notesOf.get(target) ?? {};
}
