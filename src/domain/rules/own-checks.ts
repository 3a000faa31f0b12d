// The check runs Switchyard writes itself: never an input of a condition (the Summary must not
// read itself), and a webhook about one of them asks for no evaluation.

export function isOwnCheck(name: string): boolean {
  return name.startsWith('Switchyard / ') || name === 'Switchyard Merge Protections' || /^Rule: .* \(post_check\)$/.test(name);
}
