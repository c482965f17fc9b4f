import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { MealCard } from '../components/meals/MealCard';
import { TagInput } from '../components/ui/TagInput';
import type { Child } from '../hooks/useChildren';
import type { Meal } from '../hooks/useMeals';
import { calls, mockApi, renderAt, renderRoutes, sentBody, signedIn } from '../test-utils';
import Children from './Children';
import Home from './Home';
import MealTracker from './MealTracker';

afterEach(() => {
  vi.unstubAllGlobals();
});

const emma: Child = {
  id: 'c1',
  name: 'Emma',
  age: 4,
  dietaryRestrictions: ['Vegetarian'],
  allergies: ['Peanuts', 'Milk'],
  createdAt: '',
  updatedAt: '',
  version: 1,
};
const noah: Child = {
  id: 'c2',
  name: 'Noah',
  age: 1,
  dietaryRestrictions: [],
  allergies: [],
  createdAt: '',
  updatedAt: '',
  version: 1,
};
const meal: Meal = {
  id: 'm1',
  childId: 'c1',
  mealType: 'Lunch',
  foods: ['Pasta', 'Peas'],
  portion: 'half',
  mood: 'happy',
  feedback: 'loved',
  notes: 'Ate slowly',
  photo: 'p1',
  photoUrl: '/api/media/p1',
  thumbnailUrl: '/api/media/p1?size=thumb',
  mediumUrl: '/api/media/p1?size=medium',
  mealDate: '2025-05-20T12:30:00Z',
  createdAt: '',
  updatedAt: '',
  version: 1,
  reaction: 'none',
  reactionNote: '',
  exposures: [],
};
const page = (items: unknown[]) => ({ status: 200, body: { items, nextCursor: null } });
const checked = (warnings: unknown[]) => ({
  status: 200,
  body: {
    childId: 'c1',
    childName: 'Emma',
    age: '3 years',
    prompt: null,
    warnings,
    note: null,
    introduction: null,
  },
});
const noWarnings = checked([]);

describe('TagInput', () => {
  it('adds with Enter or the button, skips empties and duplicates, removes by position', async () => {
    const user = userEvent.setup();
    let values: string[] = [];
    const { rerender } = renderAt(
      <TagInput label="Allergies" values={values} onChange={(v) => (values = v)} />,
    );
    const input = screen.getByLabelText('Allergies');
    await user.type(input, ' Peanuts {Enter}');
    expect(values).toEqual(['Peanuts']);
    rerender(<TagInput label="Allergies" values={values} onChange={(v) => (values = v)} />);
    await user.type(screen.getByLabelText('Allergies'), 'peanuts');
    await user.click(screen.getByRole('button', { name: 'Add allergies' }));
    expect(values).toEqual(['Peanuts']);
    values = ['Peanuts', 'Milk', 'Egg'];
    rerender(<TagInput label="Allergies" values={values} onChange={(v) => (values = v)} />);
    await user.click(screen.getByRole('button', { name: 'Remove Milk' }));
    expect(values).toEqual(['Peanuts', 'Egg']);
  });
});

describe('MealCard', () => {
  it('shows the child, mood, type, photo, foods, portion, feedback and notes', () => {
    mockApi();
    renderAt(<MealCard meal={meal} childName="Emma" onDelete={() => {}} />);
    expect(screen.getByText('Emma')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Loved it' })).toHaveTextContent('😋');
    expect(screen.getByText(/Lunch · 20 May/)).toBeInTheDocument();
    expect(screen.getByText('Half portion')).toBeInTheDocument();
    expect(screen.getByText('Loved it', { selector: 'dd' })).toBeInTheDocument();
    expect(screen.getByText('Parent Notes')).toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: 'Foods' })).getAllByRole('listitem'),
    ).toHaveLength(2);
    const photo = screen.getByRole('img', { name: 'Photo of Pasta, Peas' });
    expect(photo).toHaveAttribute('src', '/api/media/p1?size=thumb');
    fireEvent.error(photo);
    expect(photo).toHaveAttribute('src', '/meal-placeholder.svg');
  });

  it("says 'Unknown Child' when the child is gone", () => {
    mockApi();
    renderAt(
      <MealCard
        meal={{ ...meal, photo: undefined, photoUrl: undefined, thumbnailUrl: undefined }}
        childName={undefined}
        onDelete={() => {}}
      />,
    );
    expect(screen.getByText('Unknown Child')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /Photo of/ })).not.toBeInTheDocument();
  });

  it('has a menu button: focus moves into the menu, Escape closes it, an item returns focus', async () => {
    mockApi();
    const user = userEvent.setup();
    const onDelete = vi.fn();
    renderAt(<MealCard meal={meal} childName="Emma" onDelete={onDelete} />);
    const actions = screen.getByRole('button', { name: 'Meal actions' });
    expect(actions).toHaveAttribute('aria-haspopup', 'menu');
    expect(actions).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();

    await user.click(actions);
    expect(actions).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('menuitem', { name: 'Delete' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(actions).toHaveFocus();

    await user.keyboard('{Enter}');
    await user.keyboard('{Enter}');
    expect(onDelete).toHaveBeenCalledWith(meal);
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(actions).toHaveFocus();
  });
});

describe('Children page', () => {
  it('lists children with badges and asks before removing', async () => {
    const fetch = mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/children': { status: 200, body: [emma, noah] },
      'DELETE /api/children/c1': { status: 204, body: null },
      'GET /api/children/c1/delete-preview': { status: 200, body: { meals: 3, photos: 1 } },
    });
    const user = userEvent.setup();
    renderAt(<Children />, '/children');
    expect(await screen.findByRole('heading', { name: 'Emma' })).toBeInTheDocument();
    expect(screen.getByText('4 years')).toBeInTheDocument();
    expect(screen.getByText('1 year')).toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: 'Allergies of Emma' })).getAllByRole('listitem'),
    ).toHaveLength(2);
    const card = screen.getByRole('heading', { name: 'Emma' }).closest('li') as HTMLElement;
    await user.click(within(card).getByRole('button', { name: 'Remove' }));
    expect(
      screen.getByText('Are you sure you want to remove Emma? This action cannot be undone.'),
    ).toBeInTheDocument();
    expect(await screen.findByText('This also deletes 3 meals and 1 photo.')).toBeInTheDocument();
    expect(calls(fetch, 'DELETE', '/api/children/c1')).toHaveLength(0);
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Child removed')).toBeInTheDocument();
    expect(calls(fetch, 'DELETE', '/api/children/c1')).toHaveLength(1);
  });

  it('adds a child with the form above the list', async () => {
    const fetch = mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/children': { status: 200, body: [] },
      'POST /api/children': { status: 201, body: emma },
    });
    const user = userEvent.setup();
    renderAt(<Children />, '/children');
    expect(await screen.findByText('No children added yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add Child' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Name is required')).toBeInTheDocument();
    expect(screen.getAllByText("Please enter the child's name")).toHaveLength(2);
    expect(screen.getByLabelText('Name')).toHaveAccessibleDescription(
      "Please enter the child's name",
    );
    await user.type(screen.getByLabelText('Name'), 'Emma');
    await user.type(screen.getByLabelText('Age'), '4');
    await user.type(screen.getByLabelText('Allergies'), 'Peanuts{Enter}Milk{Enter}');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls(fetch, 'POST', '/api/children')).toHaveLength(1));
    expect(await sentBody(fetch, 'POST', '/api/children')).toEqual({
      name: 'Emma',
      age: 4,
      birthMonth: '',
      dietaryRestrictions: [],
      allergies: ['Peanuts', 'Milk'],
    });
  });
});

describe('Meal tracker', () => {
  it('without children points to adding one', async () => {
    mockApi({ 'GET /api/auth/session': signedIn, 'GET /api/children': { status: 200, body: [] } });
    renderAt(<MealTracker />, '/meal-tracker');
    expect(await screen.findByText('No Children Added Yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add Your First Child' })).toHaveAttribute(
      'href',
      '/children',
    );
  });

  it('filters by child tab and shows the empty state', async () => {
    const fetch = mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/children': { status: 200, body: [emma, noah] },
      'GET /api/meals': (r) =>
        new URL(r.url).searchParams.get('childId') === 'c2' ? page([]) : page([meal]),
    });
    const user = userEvent.setup();
    renderAt(<MealTracker />, '/meal-tracker');
    expect(
      await screen.findByRole('tab', { name: 'All Children', selected: true }),
    ).toBeInTheDocument();
    expect(await screen.findByRole('article', { name: 'Lunch of Emma' })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Noah' }));
    expect(await screen.findByText('No meals recorded yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Record First Meal' })).toBeInTheDocument();
    expect(
      calls(fetch, 'GET', '/api/meals').some(
        (r) => new URL(r.url).searchParams.get('childId') === 'c2',
      ),
    ).toBe(true);
  });

  it('records a meal: first child by default, says what is missing, Enter adds a food', async () => {
    let saved = false;
    const fetch = mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/children': { status: 200, body: [emma, noah] },
      'GET /api/meals': () => page(saved ? [meal] : []),
      'POST /api/children/c1/food-check': noWarnings,
      'POST /api/meals': () => {
        saved = true;
        return { status: 201, body: meal };
      },
    });
    const user = userEvent.setup();
    renderAt(<MealTracker />, '/meal-tracker');
    await user.click(await screen.findByRole('button', { name: 'Record Meal' }));
    const dialog = screen.getByRole('dialog', { name: 'Record Meal' });
    expect(within(dialog).getByLabelText('Child')).toHaveValue('c1');
    expect(within(dialog).getByLabelText('Portion')).toHaveValue('full');
    expect(within(dialog).getByRole('radio', { name: /Loved it/ })).toBeChecked();
    // Save stays enabled and says what is missing, at the field.
    const save = within(dialog).getByRole('button', { name: 'Save Meal' });
    await user.click(save);
    expect(within(dialog).getByLabelText('Meal type')).toHaveAccessibleDescription(
      'Please choose a meal type',
    );
    await user.selectOptions(within(dialog).getByLabelText('Meal type'), 'Dinner');
    await user.click(save);
    expect(within(dialog).getByLabelText('Foods')).toHaveAccessibleDescription(
      'Please add at least one food',
    );
    expect(calls(fetch, 'POST', '/api/meals')).toHaveLength(0);
    await user.type(within(dialog).getByLabelText('Foods'), 'Fish pie{Enter}');
    await user.click(save);
    expect(await screen.findByText('Meal recorded! 🍽️')).toBeInTheDocument();
    expect(await sentBody(fetch, 'POST', '/api/meals')).toMatchObject({
      childId: 'c1',
      mealType: 'Dinner',
      foods: ['Fish pie'],
      portion: 'full',
      mood: 'happy',
    });
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Record Meal' })).not.toBeInTheDocument(),
    );
    expect(await screen.findByRole('article', { name: 'Lunch of Emma' })).toBeInTheDocument();
  });
});

describe('Allergy warning', () => {
  it('names the food and the allergy before saving, and saves only when asked again', async () => {
    let posted = 0;
    mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/children': { status: 200, body: [emma] },
      'GET /api/meals': page([]),
      'POST /api/children/c1/food-check': checked([
        {
          kind: 'allergen',
          food: 'Buttered toast',
          allergy: 'Milk',
          message: 'Buttered toast contains milk (butter)',
          advice: "Milk is on Emma's allergy list: leave it out.",
          source: null,
          prepared: false,
          note: 'no butter',
        },
      ]),
      'POST /api/meals': () => {
        posted += 1;
        return { status: 201, body: meal };
      },
    });
    const user = userEvent.setup();
    renderAt(<MealTracker />, '/meal-tracker');
    await user.click(await screen.findByRole('button', { name: 'Record Meal' }));
    const dialog = screen.getByRole('dialog', { name: 'Record Meal' });
    await user.selectOptions(within(dialog).getByLabelText('Meal type'), 'Breakfast');
    await user.type(
      within(dialog).getByLabelText('Foods', { exact: true }),
      'Buttered toast{Enter}',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Save Meal' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Save anyway only if this is a planned introduction');
    expect(within(dialog).getByRole('list', { name: 'Food safety for Emma' })).toHaveTextContent(
      'Buttered toast contains milk (butter) (allergy: Milk)',
    );
    expect(posted).toBe(0);
    await user.click(within(dialog).getByRole('button', { name: 'Save Anyway' }));
    expect(await screen.findByText('Meal recorded! 🍽️')).toBeInTheDocument();
    expect(posted).toBe(1);
  });
});

describe('Cancel while saving', () => {
  it('waits for a meal already sent and says that it was saved', async () => {
    let answer: (() => void) | undefined;
    mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/children': { status: 200, body: [emma] },
      'GET /api/meals': page([]),
      'POST /api/children/c1/food-check': noWarnings,
    });
    // The meal's POST is answered only when the test says so.
    const mock = vi.mocked(fetch);
    const fallback = mock.getMockImplementation() ?? (() => Promise.reject(new Error('no mock')));
    mock.mockImplementation(async (request) => {
      const r = request as Request;
      if (r.method === 'POST' && new URL(r.url).pathname === '/api/meals') {
        await new Promise<void>((resolve) => (answer = resolve));
        return new Response(JSON.stringify(meal), {
          status: 201,
          headers: { 'content-type': 'application/json' },
        });
      }
      return fallback(request);
    });
    const user = userEvent.setup();
    renderAt(<MealTracker />, '/meal-tracker');
    await user.click(await screen.findByRole('button', { name: 'Record Meal' }));
    const dialog = screen.getByRole('dialog', { name: 'Record Meal' });
    await user.selectOptions(within(dialog).getByLabelText('Meal type'), 'Lunch');
    await user.type(within(dialog).getByLabelText('Foods', { exact: true }), 'Soup{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Save Meal' }));
    await waitFor(() => expect(answer).toBeDefined());
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(within(dialog).getByRole('button', { name: 'Finishing...' })).toBeDisabled();
    answer?.();
    expect(
      await screen.findByText('It was already saved when you pressed Cancel.'),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Record Meal' })).not.toBeInTheDocument(),
    );
  });
});

describe('Meal form failures', () => {
  it("show the server's title for a refused photo", async () => {
    mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/children': { status: 200, body: [emma] },
      'GET /api/meals': page([]),
      'POST /api/children/c1/food-check': noWarnings,
      'POST /api/media': {
        status: 415,
        body: {
          title: 'Photo upload failed',
          message: 'Please choose an image file (JPEG, PNG, WebP or GIF).',
          field: null,
        },
      },
    });
    const user = userEvent.setup();
    renderAt(<MealTracker />, '/meal-tracker');
    await user.click(await screen.findByRole('button', { name: 'Record Meal' }));
    const dialog = screen.getByRole('dialog', { name: 'Record Meal' });
    await user.selectOptions(within(dialog).getByLabelText('Meal type'), 'Lunch');
    await user.type(within(dialog).getByLabelText('Foods', { exact: true }), 'Soup{Enter}');
    await user.upload(
      within(dialog).getByLabelText('Photo'),
      new File(['not really'], 'notes.jpg', { type: 'image/jpeg' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Save Meal' }));
    expect(await screen.findByText('Photo upload failed')).toBeInTheDocument();
    expect(
      screen.getByText('Please choose an image file (JPEG, PNG, WebP or GIF).'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save Meal' })).toBeEnabled();
  });
});

describe('Home', () => {
  it('shows the empty states', async () => {
    mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/children': { status: 200, body: [] },
      'GET /api/meals': page([]),
    });
    renderRoutes({ '/dashboard': <Home /> }, '/dashboard');
    expect(
      await screen.findByText(
        'No children added yet. Add your first child to start tracking meals!',
      ),
    ).toBeInTheDocument();
    expect(await screen.findByText('No recent meals tracked yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Start Tracking' })).toHaveAttribute(
      'href',
      '/meal-tracker',
    );
  });

  it('shows the children grid and the five newest meals', async () => {
    const meals = Array.from({ length: 5 }, (_, i) => ({
      ...meal,
      id: `m${i}`,
      foods: [`food ${i}`],
    }));
    const fetch = mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/children': { status: 200, body: [emma] },
      'GET /api/meals': page(meals),
    });
    renderRoutes({ '/dashboard': <Home /> }, '/dashboard');
    const grid = await screen.findByRole('list', { name: 'Your children' });
    expect(within(grid).getByText('Emma')).toBeInTheDocument();
    expect(within(grid).getByText('4 years old')).toBeInTheDocument();
    expect(within(grid).getByText('E')).toBeInTheDocument();
    expect(within(grid).getByRole('link', { name: 'View Profile of Emma' })).toHaveAttribute(
      'href',
      '/children',
    );
    const recent = await screen.findByRole('list', { name: 'Recent meals' });
    await waitFor(() => expect(within(recent).getAllByRole('listitem')).toHaveLength(5));
    expect(calls(fetch, 'GET', '/api/meals')[0]?.url).toContain('limit=5');
  });
});
