// The account page: a new token's field selects its whole text when it gets focus, so one
// copy takes the token (an inline handler would be refused by the page's CSP).
document.querySelectorAll("[data-select-on-focus]").forEach((field) => {
  field.addEventListener("focus", () => field.select());
});
