/** What a view gives the page: its element, its title, and how to stop its timers. */
export interface View {
  title: string;
  element: HTMLElement;
  stop?: () => void;
}
